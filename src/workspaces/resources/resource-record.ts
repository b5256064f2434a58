/**
 * What a resource says about its work: its record (src/records) and the columns derived from it.
 * Every way a resource is made or changed (added, looked up, imported, read from a PDF, edited)
 * writes these together, so `authors` (the interface's plain names) always follows `creators`.
 */
import {
  authorsOf,
  bareDoi,
  creatorFromText,
  dateFromIso,
  recordTypeOf,
  type BibRecord,
  type Creator,
  type RecordType,
} from '../../records/index.js';
import { normaliseArxivId } from './work-key.js';

/** The columns a record decides, beside the record itself. */
export interface RecordColumns {
  type: RecordType;
  authors: string[];
  record: BibRecord;
}

/**
 * The type of a work that says none: a journal article when it has a DOI, a web page when it has a
 * URL, else a document (what export wrote for such resources before records had types).
 */
function defaultType(record: BibRecord, url: string | null | undefined): RecordType {
  if (record.doi) return 'article-journal';
  if (record.arxivId) return 'preprint';
  return url ? 'webpage' : 'document';
}

/** The columns for a record of this type (its default when none is known). */
export function recordColumns(
  record: BibRecord,
  type: RecordType | null | undefined,
  url: string | null | undefined,
): RecordColumns {
  return { type: type ?? defaultType(record, url), authors: authorsOf(record), record };
}

/** Creators from plain names ("Grace Hopper", "Hopper, Grace"), in order, as authors. */
export function creatorsFromNames(names: readonly string[]): Creator[] {
  return names.flatMap((name) => creatorFromText(name) ?? []);
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, 2_000) : undefined;
}

/**
 * The record a resource's free-form `data` describes, read as the service read it before records
 * were kept (export.ts): `publishedDate`/`date`/`year`, `venue`/`journal`/`container-title`,
 * `publisher`, `volume`, `issue`, `pages`/`page`, `abstract`, `doi`/`DOI`, `arxivId`, `pmid`. A
 * Variant A client that sends them in `data` still gets them cited.
 */
export function recordFromData(data: Record<string, unknown>): BibRecord {
  const record: BibRecord = {};
  const issued =
    dateFromIso(data.publishedDate) ?? dateFromIso(data.date) ?? dateFromIso(data.year);
  if (issued) record.issued = issued;
  const venue = textOf(data.venue) ?? textOf(data.journal) ?? textOf(data['container-title']);
  // `arXiv cs.SE` is where the arXiv provider put a preprint's category: not a container.
  if (venue && !/^arxiv(\s|$)/i.test(venue)) record.containerTitle = venue;
  for (const field of ['publisher', 'volume', 'issue'] as const) {
    const value = textOf(data[field]);
    if (value) record[field] = value;
  }
  const pages = textOf(data.pages) ?? textOf(data.page);
  if (pages) record.pages = pages;
  const abstract = typeof data.abstract === 'string' ? data.abstract.trim().slice(0, 10_000) : '';
  if (abstract) record.abstract = abstract;
  const doi = textOf(data.doi) ?? textOf(data.DOI);
  const bare = doi ? bareDoi(doi) : null;
  if (bare) record.doi = bare;
  const arxivId = textOf(data.arxivId);
  const arxiv = arxivId ? normaliseArxivId(arxivId) : null;
  if (arxiv) record.arxivId = arxiv;
  const pmid = textOf(data.pmid) ?? textOf(data.PMID);
  if (pmid && /^\d{1,9}$/.test(pmid)) record.pmid = pmid;
  return record;
}

/**
 * A row's record: its own, or, for a row saved before records were kept that the start-up upgrade
 * has not reached (record-upgrade.ts), the one the upgrade will give it.
 */
export function recordOfRow(row: {
  record: BibRecord | null;
  authors: string[];
  data: Record<string, unknown>;
}): BibRecord {
  return row.record ?? legacyRecordOf(row);
}

/** The record of a row saved before records were kept: its plain names and its `data`. */
export function legacyRecordOf(row: {
  authors: string[];
  data: Record<string, unknown>;
}): BibRecord {
  const record = recordFromData(row.data);
  const creators = creatorsFromNames(row.authors);
  return creators.length > 0 ? { creators, ...record } : record;
}

/** A stored type as a record type: the older names (`article`, `conference-paper`…) read as today's. */
export function storedTypeOf(
  type: string | null,
  record: BibRecord,
  url: string | null,
): RecordType {
  if (type === 'article') return 'article-journal';
  return recordTypeOf(type) ?? defaultType(record, url);
}
