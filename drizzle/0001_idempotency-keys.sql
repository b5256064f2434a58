CREATE TABLE "idempotency_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"response_status" integer,
	"response_content_type" text,
	"response_body" text,
	"claimed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");