CREATE TABLE "alert_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"period" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"found" integer DEFAULT 0 NOT NULL,
	"new_count" integer DEFAULT 0 NOT NULL,
	"providers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"works" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mail" text DEFAULT 'none' NOT NULL,
	"mail_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_runs_status_check" CHECK ("alert_runs"."status" in ('queued', 'running', 'done', 'partial', 'failed')),
	CONSTRAINT "alert_runs_mail_check" CHECK ("alert_runs"."mail" in ('none', 'pending', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "alert_seen_works" (
	"alert_id" uuid NOT NULL,
	"work_key" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_seen_works_alert_id_work_key_pk" PRIMARY KEY("alert_id","work_key")
);
--> statement-breakpoint
CREATE TABLE "alert_unsubscribes" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"query" text NOT NULL,
	"frequency" text NOT NULL,
	"unsubscribed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"query" text NOT NULL,
	"providers" jsonb,
	"filters" jsonb,
	"frequency" text NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"next_run_at" timestamp with time zone,
	"unsubscribe_token_hash" text NOT NULL,
	"unsubscribe_token_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_frequency_check" CHECK ("alerts"."frequency" in ('daily', 'weekly'))
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue" text NOT NULL,
	"singleton_key" text,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'ready' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_state_check" CHECK ("jobs"."state" in ('ready', 'active', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "alert_runs" ADD CONSTRAINT "alert_runs_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_seen_works" ADD CONSTRAINT "alert_seen_works_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_runs_alert_idx" ON "alert_runs" USING btree ("alert_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_runs_period_key" ON "alert_runs" USING btree ("alert_id","period");--> statement-breakpoint
CREATE INDEX "alert_seen_works_age_idx" ON "alert_seen_works" USING btree ("alert_id","seen_at");--> statement-breakpoint
CREATE INDEX "alerts_user_idx" ON "alerts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_unsubscribe_token_key" ON "alerts" USING btree ("unsubscribe_token_hash");--> statement-breakpoint
CREATE INDEX "alerts_due_idx" ON "alerts" USING btree ("next_run_at") WHERE "alerts"."paused" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_key" ON "jobs" USING btree ("singleton_key");--> statement-breakpoint
CREATE INDEX "jobs_waiting_idx" ON "jobs" USING btree ("queue","run_at") WHERE "jobs"."state" in ('ready', 'active');--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at");