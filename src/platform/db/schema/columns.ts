/** The column kinds the schema's tables share. */
import { type SQL } from 'drizzle-orm';
import { customType, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** PostgreSQL's text-search document type; read only by library search's SQL, never selected into rows. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A text-search document kept by PostgreSQL itself (a stored generated column), so that no write path
 * can forget it. Its weight says how much a hit there counts (library search: A title; B authors, tags;
 * C abstract, notes, annotations; D a PDF's pages). `english` is named, not the server's default, so the
 * expression is immutable and both stores stem alike.
 */
export const searchDocument = (expression: SQL) => tsvector('search').generatedAlwaysAs(expression);
