/** A resource's PDF, its pages' text and its search document (src/workspaces/pdfs). */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, tsvector, searchDocument } from './columns.js';
import { users } from './accounts.js';
import { workspaceResources } from './workspaces.js';

/**
 * A PDF kept with a resource (at most one): the file lives in the blob store under `blob_key`; its text
 * is extracted off the request path, and `extraction` says how far that got.
 */
export const resourcePdfs = pgTable(
  'resource_pdfs',
  {
    resourceId: uuid('resource_id')
      .primaryKey()
      .references(() => workspaceResources.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    /** The name the file was uploaded with, for `Content-Disposition`. */
    filename: text('filename').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Hex SHA-256 of the file's bytes. */
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * `pending` until the text is extracted, then `ready`, or `failed` with `extraction_error`. The
     * extraction is a job of the `pdfs.extract` queue (pg-boss), enqueued with the row.
     */
    extraction: text('extraction').notNull().default('pending'),
    /** Why extraction failed, in words a user can act on (e.g. an image-only PDF). */
    extractionError: text('extraction_error'),
    pageCount: integer('page_count'),
    /** The resource was created from this PDF: extraction also fills its record (identifier lookup, else the PDF's own metadata). */
    fillMetadata: boolean('fill_metadata').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('resource_pdfs_extraction_check', sql`${t.extraction} in ('pending', 'ready', 'failed')`),
    index('resource_pdfs_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.extraction} = 'pending'`),
  ],
);

/** The extracted text of one page (numbered from 1) of a resource's PDF: for library search and deep summaries. */
export const resourcePdfPages = pgTable(
  'resource_pdf_pages',
  {
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resourcePdfs.resourceId, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    text: text('text').notNull(),
    search: searchDocument(sql`setweight(to_tsvector('english_unaccent'::regconfig, "text"), 'D')`),
  },
  // A PDF is found through its whole document (resource_pdf_documents); a page's vector is read only
  // in page order through the primary key (library/store.ts says why), so it has no index of its own.
  (t) => [primaryKey({ columns: [t.resourceId, t.page] })],
);

/**
 * A PDF's whole text as one search document, kept by triggers on resource_pdf_pages (migration 0011):
 * library search finds the PDFs holding a query here, one index entry per PDF rather than one per
 * page, and reads the pages only to show where. A table of its own, so that no read of resource_pdfs
 * carries a document of hundreds of kilobytes.
 *
 * Besides its words, the document holds each pair of words that follow each other on a page, as one
 * lexeme without positions (`'gene express'`, migration 0026): a quoted phrase is then found through
 * the index alone (`"gene expression"` is the lexeme `'gene express'`), where checking the words'
 * positions would read every document holding both words.
 */
export const resourcePdfDocuments = pgTable(
  'resource_pdf_documents',
  {
    resourceId: uuid('resource_id')
      .primaryKey()
      .references(() => resourcePdfs.resourceId, { onDelete: 'cascade' }),
    search: tsvector('search').notNull(),
    // The resource's workspace, when it was added and its year, kept by triggers (migration 0031): a
    // search reads whether a PDF hit is the reader's, and where it sorts, here, not from the resource.
    workspaceId: uuid('workspace_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    year: integer('year'),
  },
  (t) => [index('resource_pdf_documents_search_idx').using('gin', t.search)],
);
