CREATE TABLE "resource_pdf_pages" (
	"resource_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "resource_pdf_pages_resource_id_page_pk" PRIMARY KEY("resource_id","page")
);
--> statement-breakpoint
CREATE TABLE "resource_pdfs" (
	"resource_id" uuid PRIMARY KEY NOT NULL,
	"blob_key" text NOT NULL,
	"filename" text NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" uuid,
	"extraction" text DEFAULT 'pending' NOT NULL,
	"extraction_error" text,
	"page_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_pdfs_extraction_check" CHECK ("resource_pdfs"."extraction" in ('pending', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "resource_pdf_pages" ADD CONSTRAINT "resource_pdf_pages_resource_id_resource_pdfs_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource_pdfs"("resource_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_pdfs" ADD CONSTRAINT "resource_pdfs_resource_id_workspace_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."workspace_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_pdfs" ADD CONSTRAINT "resource_pdfs_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resource_pdfs_pending_idx" ON "resource_pdfs" USING btree ("created_at") WHERE "resource_pdfs"."extraction" = 'pending';