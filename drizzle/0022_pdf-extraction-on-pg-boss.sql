-- PDF text extraction moved to pg-boss (the `pdfs.extract` queue, with its own attempts, heartbeats and retries): the row's lease and attempt count go. Rows pending now get their job from the next sweep (pdfs.sweep).
ALTER TABLE "resource_pdfs" DROP COLUMN "claimed_until";--> statement-breakpoint
ALTER TABLE "resource_pdfs" DROP COLUMN "attempts";