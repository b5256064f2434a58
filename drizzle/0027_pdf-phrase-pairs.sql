-- Quoted phrases through the PDF documents' index: each document also holds every pair of words that
-- follow each other on one of its pages, as a lexeme without positions ('gene express'), and library
-- search reads a phrase as its pairs (src/library/store.ts). A page's own index is no longer read.
DROP INDEX "resource_pdf_pages_search_idx";--> statement-breakpoint
-- The pairs of lexemes at consecutive positions of one page's vector.
CREATE FUNCTION "resource_pdf_page_pairs"(page tsvector) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT a.lexeme || ' ' || b.lexeme), '{}')
    FROM (SELECT lexeme, unnest(positions) AS pos FROM unnest(page)) AS a
    JOIN (SELECT lexeme, unnest(positions) AS pos FROM unnest(page)) AS b ON b.pos = a.pos + 1
$$;--> statement-breakpoint
-- A PDF's document: its words with their positions and its pages' pairs. Past a tsvector's 1 MB, the
-- words lose their positions, then the pairs are left out (a phrase is then not found in that PDF).
CREATE FUNCTION "resource_pdf_document"(pdf uuid) RETURNS tsvector LANGUAGE plpgsql STABLE AS $$
DECLARE
  whole text;
  pairs tsvector;
  words tsvector;
BEGIN
  SELECT string_agg(p.text, E'\n' ORDER BY p.page) INTO whole FROM resource_pdf_pages p WHERE p.resource_id = pdf;
  IF whole IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT array_to_tsvector(coalesce(array_agg(DISTINCT pair), '{}')) INTO pairs
    FROM resource_pdf_pages p, unnest(resource_pdf_page_pairs(p.search)) AS pair WHERE p.resource_id = pdf;
  BEGIN
    words := setweight(to_tsvector('english_unaccent', whole), 'D');
  EXCEPTION WHEN program_limit_exceeded THEN
    words := strip(to_tsvector('english_unaccent', whole));
  END;
  BEGIN
    RETURN words || pairs;
  EXCEPTION WHEN program_limit_exceeded THEN
    RETURN words;
  END;
END
$$;--> statement-breakpoint
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
    INSERT INTO resource_pdf_documents (resource_id, search) VALUES (changed_id, document)
      ON CONFLICT (resource_id) DO UPDATE SET search = excluded.search;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
UPDATE "resource_pdf_documents" SET "search" = coalesce(resource_pdf_document("resource_id"), "search");--> statement-breakpoint
ANALYZE "resource_pdf_documents";
