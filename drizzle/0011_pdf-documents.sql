CREATE TABLE "resource_pdf_documents" (
	"resource_id" uuid PRIMARY KEY NOT NULL,
	"search" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "resource_pdf_documents" ADD CONSTRAINT "resource_pdf_documents_resource_id_resource_pdfs_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource_pdfs"("resource_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resource_pdf_documents_search_idx" ON "resource_pdf_documents" USING gin ("search");--> statement-breakpoint
-- Keeps resource_pdf_documents in step with resource_pdf_pages, whichever way pages are written: once
-- per statement, for the PDFs whose pages it changed (the extraction worker writes a PDF's pages in a
-- few statements). A PDF whose pages are all gone, or whose row is gone, has no document.
CREATE FUNCTION "resource_pdf_documents_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_id uuid;
  whole text;
  document tsvector;
BEGIN
  FOR changed_id IN SELECT DISTINCT resource_id FROM changed LOOP
    SELECT string_agg(p.text, E'\n' ORDER BY p.page) INTO whole FROM resource_pdf_pages p WHERE p.resource_id = changed_id;
    IF whole IS NULL OR NOT EXISTS (SELECT 1 FROM resource_pdfs f WHERE f.resource_id = changed_id) THEN
      DELETE FROM resource_pdf_documents WHERE resource_id = changed_id;
      CONTINUE;
    END IF;
    BEGIN
      document := setweight(to_tsvector('english', whole), 'D');
    EXCEPTION WHEN program_limit_exceeded THEN
      -- Past a tsvector's 1 MB: the words without their positions (a quoted phrase then matches its
      -- words anywhere in the PDF; the pages still say where).
      document := strip(to_tsvector('english', whole));
    END;
    INSERT INTO resource_pdf_documents (resource_id, search) VALUES (changed_id, document)
      ON CONFLICT (resource_id) DO UPDATE SET search = excluded.search;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "resource_pdf_pages_inserted" AFTER INSERT ON "resource_pdf_pages" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "resource_pdf_documents_refresh"();
--> statement-breakpoint
CREATE TRIGGER "resource_pdf_pages_updated" AFTER UPDATE ON "resource_pdf_pages" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "resource_pdf_documents_refresh"();
--> statement-breakpoint
CREATE TRIGGER "resource_pdf_pages_deleted" AFTER DELETE ON "resource_pdf_pages" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "resource_pdf_documents_refresh"();
--> statement-breakpoint
INSERT INTO "resource_pdf_documents" ("resource_id", "search")
  SELECT "resource_id", setweight(to_tsvector('english', string_agg("text", E'\n' ORDER BY "page")), 'D') FROM "resource_pdf_pages" GROUP BY "resource_id";
