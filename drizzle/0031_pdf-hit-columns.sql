-- A PDF's search document carries its resource's workspace, when it was added and its year, so that
-- library search reads whether a PDF hit is the reader's, and where it sorts, from the documents it
-- finds rather than with one lookup of the resource per PDF (about 2,000 for a common word in a library
-- of 2,000 PDFs). Triggers keep them: a document is written with its resource's values, and a resource
-- moved to another workspace, or given another year, passes them on.
ALTER TABLE "resource_pdf_documents" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "resource_pdf_documents" ADD COLUMN "created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resource_pdf_documents" ADD COLUMN "year" integer;--> statement-breakpoint
UPDATE "resource_pdf_documents" f SET "workspace_id" = r."workspace_id", "created_at" = r."created_at", "year" = r."year"
  FROM "workspace_resources" r WHERE r."id" = f."resource_id";--> statement-breakpoint
ALTER TABLE "resource_pdf_documents" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "resource_pdf_documents" ALTER COLUMN "created_at" SET NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "resource_pdf_documents_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_id uuid;
  document tsvector;
BEGIN
  FOR changed_id IN SELECT DISTINCT resource_id FROM changed LOOP
    document := resource_pdf_document(changed_id);
    IF document IS NULL OR NOT EXISTS (SELECT 1 FROM resource_pdfs f WHERE f.resource_id = changed_id) THEN
      DELETE FROM resource_pdf_documents WHERE resource_id = changed_id;
      CONTINUE;
    END IF;
    INSERT INTO resource_pdf_documents (resource_id, search, workspace_id, created_at, year)
      SELECT changed_id, document, r.workspace_id, r.created_at, r.year FROM workspace_resources r WHERE r.id = changed_id
      ON CONFLICT (resource_id) DO UPDATE
        SET search = excluded.search, workspace_id = excluded.workspace_id, created_at = excluded.created_at, year = excluded.year;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "resource_pdf_documents_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE resource_pdf_documents f SET workspace_id = r.workspace_id, year = r.year
    FROM changed r
   WHERE f.resource_id = r.id AND (f.workspace_id <> r.workspace_id OR f.year IS DISTINCT FROM r.year);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "workspace_resources_updated" AFTER UPDATE ON "workspace_resources" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "resource_pdf_documents_follow"();--> statement-breakpoint
ANALYZE "resource_pdf_documents";
