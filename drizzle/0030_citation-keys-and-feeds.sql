CREATE TABLE "workspace_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"format" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_resources" ADD COLUMN "citation_key" text;--> statement-breakpoint
ALTER TABLE "workspace_feeds" ADD CONSTRAINT "workspace_feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_feeds" ADD CONSTRAINT "workspace_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_feeds_token_key" ON "workspace_feeds" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "workspace_feeds_workspace_user_idx" ON "workspace_feeds" USING btree ("workspace_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_resources_citation_key" ON "workspace_resources" USING btree ("workspace_id",lower("citation_key"));