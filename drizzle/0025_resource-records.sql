-- Structured records (src/records): the record column first, then the library view's sort keys read
-- from it (generated columns cannot change their expression: dropped and added again, with the
-- indexes that went with them). Rows saved before get their records at start-up (record-upgrade.ts).
ALTER TABLE "workspace_resources" ADD COLUMN "record" jsonb;--> statement-breakpoint
ALTER TABLE "workspace_resources" drop column "year";--> statement-breakpoint
ALTER TABLE "workspace_resources" ADD COLUMN "year" integer GENERATED ALWAYS AS ((case when jsonb_typeof(record->'issued'->'year') = 'number' then (record->'issued'->>'year')::integer end)) STORED;--> statement-breakpoint
ALTER TABLE "workspace_resources" drop column "venue";--> statement-breakpoint
ALTER TABLE "workspace_resources" ADD COLUMN "venue" text GENERATED ALWAYS AS (nullif(btrim(record->>'containerTitle'), '')) STORED;--> statement-breakpoint
ALTER TABLE "workspace_resources" drop column "author_sort";--> statement-breakpoint
ALTER TABLE "workspace_resources" ADD COLUMN "author_sort" text GENERATED ALWAYS AS (lower(coalesce(coalesce(jsonb_path_query_first(record, '$.creators[*] ? (@.role == "author")'), record->'creators'->0)->>'family', coalesce(jsonb_path_query_first(record, '$.creators[*] ? (@.role == "author")'), record->'creators'->0)->>'literal'))) STORED;--> statement-breakpoint
CREATE INDEX "workspace_resources_author_idx" ON "workspace_resources" USING btree ("workspace_id","author_sort");--> statement-breakpoint
CREATE INDEX "workspace_resources_year_idx" ON "workspace_resources" USING btree ("workspace_id","year");--> statement-breakpoint
CREATE INDEX "workspace_resources_venue_idx" ON "workspace_resources" USING btree ("workspace_id",lower("venue"));
