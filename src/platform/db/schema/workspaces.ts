/** Workspaces and the resources they hold (src/workspaces). */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, searchDocument } from './columns.js';
import { users } from './accounts.js';

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isPublic: boolean('is_public').notNull().default(false),
    /** Optimistic concurrency (ETag / If-Match): 1 when created, +1 on every change of its own fields (settings, owner). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('workspaces_owner_created_idx').on(t.ownerId, t.createdAt)],
);

/*
 * Pieces of the generated columns' expressions below (Drizzle inlines a nested fragment, so the
 * expression's text is what the migrations in drizzle/ recorded).
 */
/** The first author of the record (`record.creators`), else its first creator of any role. */
const FIRST_CREATOR = sql`coalesce(jsonb_path_query_first(record, '$.creators[*] ? (@.role == "author")'), record->'creators'->0)`;

export const workspaceResources = pgTable(
  'workspace_resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who added it (null once that account is gone). */
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    /** The search id this entry was added by (Variant B), e.g. `arxiv:2101.00001v2`. */
    resourceId: text('resource_id'),
    /** Identity of the work (DOI, arXiv id, URL…) so the same work is not added twice to one workspace. */
    workKey: text('work_key'),
    title: text('title').notNull(),
    /**
     * The key documents cite it by (src/workspaces/citation-keys): the one an imported entry came
     * with, else made once when it was added; unique in its workspace, whatever the case. Null only on
     * a row saved before keys were kept, until the start-up upgrade gives it one.
     */
    citationKey: text('citation_key'),
    url: text('url'),
    type: text('type'),
    authors: jsonb('authors')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    tags: jsonb('tags')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    notes: text('notes').notNull().default(''),
    /** Who last wrote the notes, and when (null: never written, or that account is gone). */
    notesUpdatedBy: uuid('notes_updated_by').references(() => users.id, { onDelete: 'set null' }),
    notesUpdatedAt: timestamp('notes_updated_at', { withTimezone: true }),
    data: jsonb('data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /**
     * The bibliographic record (src/records: names with roles, dates, venue, identifiers, every CSL
     * variable but title, URL, type, keywords and note, which are columns of their own). Null only
     * on a row saved before records were kept, until the start-up upgrade fills it.
     */
    record: jsonb('record').$type<Record<string, unknown>>(),
    /** Optimistic concurrency (ETag / If-Match): 1 when added, +1 on every change (notes, tags, record, a move). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    /*
     * Sort and filter keys of the library view, kept by the database from the row itself (stored
     * generated columns), so that every way a resource is written (added, imported, moved) keeps them
     * right and each can be indexed. Raw column names: a generated column's expression names no table.
     */
    /** The year the record was issued. */
    year: integer('year').generatedAlwaysAs(
      sql`(case when jsonb_typeof(record->'issued'->'year') = 'number' then (record->'issued'->>'year')::integer end)`,
    ),
    /** The record's container (journal, proceedings, book, site). */
    venue: text('venue').generatedAlwaysAs(sql`nullif(btrim(record->>'containerTitle'), '')`),
    /** The first author's family name (an organisation's whole name), lower-cased. */
    authorSort: text('author_sort').generatedAlwaysAs(
      sql`lower(coalesce(${FIRST_CREATOR}->>'family', ${FIRST_CREATOR}->>'literal'))`,
    ),
    search: searchDocument(
      sql.join(
        [
          sql`setweight(to_tsvector('english_unaccent'::regconfig, "title"), 'A')`,
          sql`setweight(jsonb_to_tsvector('english_unaccent'::regconfig, "authors", '["string"]'), 'B')`,
          sql`setweight(jsonb_to_tsvector('english_unaccent'::regconfig, "tags", '["string"]'), 'B')`,
          sql`setweight(to_tsvector('english_unaccent'::regconfig, coalesce("record"->>'abstract', "data"->>'abstract', '')), 'C')`,
          sql`setweight(to_tsvector('english_unaccent'::regconfig, "notes"), 'C')`,
        ],
        sql` || `,
      ),
    ),
  },
  (t) => [
    index('workspace_resources_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('workspace_resources_work_key').on(t.workspaceId, t.workKey),
    // BibTeX compares keys without case: `Smith2020` and `smith2020` are one key.
    uniqueIndex('workspace_resources_citation_key').on(t.workspaceId, sql`lower(${t.citationKey})`),
    // The library view's sorts (src/workspaces/store.ts, listResources): a page is read in index order.
    index('workspace_resources_title_idx').on(t.workspaceId, sql`lower(${t.title})`),
    index('workspace_resources_author_idx').on(t.workspaceId, t.authorSort),
    index('workspace_resources_year_idx').on(t.workspaceId, t.year),
    index('workspace_resources_venue_idx').on(t.workspaceId, sql`lower(${t.venue})`),
    index('workspace_resources_search_idx').using('gin', t.search),
    // What library search carries of each hit to its sort (src/library/store.ts), read from the index
    // alone: a common word's PDFs are thousands of lookups by id.
    index('workspace_resources_hit_idx').on(t.id, t.workspaceId, t.createdAt, t.year),
    // Quoted phrases through an index: the vector with its pairs of consecutive words (migration
    // 0027's function, as in a PDF's document; src/library/store.ts reads a phrase as its pairs).
    index('workspace_resources_search_pairs_idx').using(
      'gin',
      sql`(${t.search} || array_to_tsvector(resource_pdf_page_pairs(${t.search})))`,
    ),
  ],
);
