ALTER TABLE "resource_pdfs" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resource_pdfs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "resource_pdfs" ADD COLUMN "fill_metadata" boolean DEFAULT false NOT NULL;