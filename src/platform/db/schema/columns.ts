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
 * C abstract, notes, annotations; D a PDF's pages). The text search configuration is named, not the
 * server's default, so the expression is immutable and both stores read text alike: `english_unaccent`
 * (migration 0025) is `english` with the `unaccent` dictionary before the stemmer, so "Müller",
 * "Ćwiklinski" and "École" are kept as `muller`, `cwiklinski`, `ecol` and found as typed without their
 * accents, in any case. Library search's queries read text through the same configuration.
 */
export const searchDocument = (expression: SQL) => tsvector('search').generatedAlwaysAs(expression);
