-- Library search without accents: `english_unaccent` is `english` with the unaccent dictionary before
-- the stemmer (and before `simple` for words with digits), so "Müller" is kept as `muller` and found
-- by `muller`, "École" by `ecole`. `simple_unaccent` is `simple` likewise (a half-typed word's prefix,
-- src/library/store.ts). unaccent() itself is not immutable; a configuration is, as to_tsvector with a
-- named configuration, so the search documents stay generated columns. PGlite loads the extension
-- (src/platform/db/client.ts); PostgreSQL ships it (a trusted extension: a database owner may create it).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION english_unaccent (COPY = english);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION english_unaccent ALTER MAPPING FOR word, hword, hword_part WITH unaccent, english_stem;--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION english_unaccent ALTER MAPPING FOR numword, hword_numpart WITH unaccent, simple;--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION simple_unaccent (COPY = simple);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION simple_unaccent ALTER MAPPING FOR word, hword, hword_part, numword, hword_numpart WITH unaccent, simple;--> statement-breakpoint
ALTER TABLE "workspace_resources" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "workspace_resources" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english_unaccent'::regconfig, "title"), 'A') || setweight(jsonb_to_tsvector('english_unaccent'::regconfig, "authors", '["string"]'), 'B') || setweight(jsonb_to_tsvector('english_unaccent'::regconfig, "tags", '["string"]'), 'B') || setweight(to_tsvector('english_unaccent'::regconfig, coalesce("record"->>'abstract', "data"->>'abstract', '')), 'C') || setweight(to_tsvector('english_unaccent'::regconfig, "notes"), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "workspace_resources_search_idx" ON "workspace_resources" USING gin ("search");--> statement-breakpoint
ALTER TABLE "resource_pdf_pages" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "resource_pdf_pages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english_unaccent'::regconfig, "text"), 'D')) STORED;--> statement-breakpoint
CREATE INDEX "resource_pdf_pages_search_idx" ON "resource_pdf_pages" USING gin ("search");--> statement-breakpoint
ALTER TABLE "annotations" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english_unaccent'::regconfig, "body"), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "annotations_search_idx" ON "annotations" USING gin ("search");--> statement-breakpoint
-- A PDF's whole document (migration 0011), read through the same configuration from now on.
CREATE OR REPLACE FUNCTION "resource_pdf_documents_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      document := setweight(to_tsvector('english_unaccent', whole), 'D');
    EXCEPTION WHEN program_limit_exceeded THEN
      -- Past a tsvector's 1 MB: the words without their positions (a quoted phrase then matches its
      -- words anywhere in the PDF; the pages still say where).
      document := strip(to_tsvector('english_unaccent', whole));
    END;
    INSERT INTO resource_pdf_documents (resource_id, search) VALUES (changed_id, document)
      ON CONFLICT (resource_id) DO UPDATE SET search = excluded.search;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  pdf record;
  document tsvector;
BEGIN
  FOR pdf IN SELECT resource_id, string_agg(text, E'\n' ORDER BY page) AS whole FROM resource_pdf_pages GROUP BY resource_id LOOP
    BEGIN
      document := setweight(to_tsvector('english_unaccent', pdf.whole), 'D');
    EXCEPTION WHEN program_limit_exceeded THEN
      document := strip(to_tsvector('english_unaccent', pdf.whole));
    END;
    UPDATE resource_pdf_documents SET search = document WHERE resource_id = pdf.resource_id;
  END LOOP;
END
$$;
--> statement-breakpoint
ANALYZE "workspace_resources";--> statement-breakpoint
ANALYZE "resource_pdf_pages";--> statement-breakpoint
ANALYZE "annotations";--> statement-breakpoint
ANALYZE "resource_pdf_documents";
