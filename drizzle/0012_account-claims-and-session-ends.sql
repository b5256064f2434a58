ALTER TABLE "refresh_tokens" ADD COLUMN "ended_reason" text;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "paused_at" timestamp with time zone;