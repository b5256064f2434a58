-- Library search at scale (src/library/store.ts, docs/performance.md "Library search p95").
-- 1. A resource's search vector is kept in its row (compressed), not out of line in the TOAST table:
-- ranking the hits of a common word (ts_rank reads each hit's whole vector) fetched each vector through
-- the TOAST index, about ten times the cost of reading it from the row. The data and record, read for
-- the page of results only, move out of line instead. The rows are rewritten once so that the existing
-- vectors move too (the generated columns are computed again from the same text).
ALTER TABLE "workspace_resources" ALTER COLUMN "search" SET STORAGE MAIN;--> statement-breakpoint
UPDATE "workspace_resources" SET "notes" = "notes";--> statement-breakpoint
-- 2. What a hit carries to the sort (workspace, added, year), read from an index alone: a common
-- word's PDFs are thousands of lookups by id.
CREATE INDEX "workspace_resources_hit_idx" ON "workspace_resources" USING btree ("id","workspace_id","created_at","year");--> statement-breakpoint
-- 3. Quoted phrases in records through an index, as in PDFs (migration 0027): each record's vector with
-- the pairs of words that follow each other in it, as lexemes without positions ('gene express').
CREATE INDEX "workspace_resources_search_pairs_idx" ON "workspace_resources" USING gin (("search" || array_to_tsvector(resource_pdf_page_pairs("search"))));--> statement-breakpoint
ANALYZE "workspace_resources";
