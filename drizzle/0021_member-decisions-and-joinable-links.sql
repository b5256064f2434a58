CREATE TABLE "workspace_member_decisions" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"granted_role" text,
	"removed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_member_decisions_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "workspace_member_decisions_role_check" CHECK ("workspace_member_decisions"."granted_role" is null or "workspace_member_decisions"."granted_role" in ('editor', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "allow_join" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_member_decisions" ADD CONSTRAINT "workspace_member_decisions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_member_decisions" ADD CONSTRAINT "workspace_member_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_member_decisions_user_idx" ON "workspace_member_decisions" USING btree ("user_id");--> statement-breakpoint
-- Editable links exist to be joined through; read-only ones stop admitting until their owner turns joining on.
UPDATE "share_links" SET "allow_join" = true WHERE "read_only" = false;--> statement-breakpoint
-- Members who did not join through a link were added or invited: the role they hold is the owner's decision.
INSERT INTO "workspace_member_decisions" ("workspace_id", "user_id", "granted_role")
SELECT "workspace_id", "user_id", "role" FROM "workspace_members" WHERE "share_link_id" IS NULL
ON CONFLICT DO NOTHING;
