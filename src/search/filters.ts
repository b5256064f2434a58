/**
 * Search filters (year range, has a PDF, type, venue): what `GET /api/search` takes, the coarse work
 * types provider records map onto, and the check applied to the merged list, so that a provider that
 * ignores a filter (or has no native parameter for it) still yields only matching results. Providers
 * that support a filter also send it upstream (each provider file), which keeps their answers full.
 */
import type { SearchRecord } from './types.js';
import { ownValue } from '../platform/own-key.js';

/** The kinds of work a filter can ask for; every provider's own type maps onto one of them. */
export const RESULT_TYPES = [
  'article',
  'preprint',
  'book',
  'chapter',
  'conference',
  'dataset',
  'software',
  'thesis',
  'video',
  'other',
] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

export interface SearchFilters {
  /** Earliest publication year, inclusive. */
  yearFrom?: number;
  /** Latest publication year, inclusive. */
  yearTo?: number;
  /** Only works with a known, freely readable PDF (open access). */
  hasPdf?: boolean;
  type?: ResultType;
  /** Words the venue (journal, conference, repository) must contain, case and accents ignored. */
  venue?: string;
}

/**
 * Provider types, lower-cased with separators removed, by coarse type: Crossref (`journal-article`,
 * `posted-content`, `proceedings-article`, `book-chapter`), OpenAlex (`article`, `preprint`, `book-chapter`),
 * Semantic Scholar (`JournalArticle`, `Conference`, `BookSection`, `Review`), Zenodo (resource type and
 * subtype, `thesis`), PubMed (`article`, `book`), arXiv (`preprint`), YouTube (`video`).
 */
const TYPE_ALIASES: Record<string, ResultType> = {
  article: 'article',
  journalarticle: 'article',
  review: 'article',
  letter: 'article',
  lettersandcomments: 'article',
  editorial: 'article',
  casereport: 'article',
  clinicaltrial: 'article',
  metaanalysis: 'article',
  study: 'article',
  news: 'article',
  publication: 'article',
  preprint: 'preprint',
  postedcontent: 'preprint',
  workingpaper: 'preprint',
  book: 'book',
  monograph: 'book',
  editedbook: 'book',
  referencebook: 'book',
  booksection: 'chapter',
  bookchapter: 'chapter',
  bookpart: 'chapter',
  section: 'chapter',
  conference: 'conference',
  conferencepaper: 'conference',
  proceedingsarticle: 'conference',
  proceedings: 'conference',
  dataset: 'dataset',
  software: 'software',
  thesis: 'thesis',
  dissertation: 'thesis',
  video: 'video',
  videoaudio: 'video',
};

/** The coarse type of a provider's type string; `other` for anything unknown or absent. */
export function resultTypeOf(providerType: string | undefined): ResultType {
  if (!providerType) return 'other';
  return ownValue(TYPE_ALIASES, providerType.toLowerCase().replace(/[^a-z]/g, '')) ?? 'other';
}

export function hasFilters(filters: SearchFilters | undefined): filters is SearchFilters {
  return !!filters && Object.values(filters).some((value) => value !== undefined);
}

/** Lower case without accents or punctuation, words single-spaced: how venues are compared. */
function foldForMatch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether a (merged) record meets every filter; a record whose year is unknown fails a year range. */
function matchesFilters(record: SearchRecord, filters: SearchFilters): boolean {
  if (filters.yearFrom !== undefined && (record.year === null || record.year < filters.yearFrom))
    return false;
  if (filters.yearTo !== undefined && (record.year === null || record.year > filters.yearTo))
    return false;
  if (filters.hasPdf && !record.pdfUrl) return false;
  if (filters.type && resultTypeOf(record.type) !== filters.type) return false;
  if (filters.venue) {
    const wanted = foldForMatch(filters.venue);
    if (wanted && !foldForMatch(record.venue ?? '').includes(wanted)) return false;
  }
  return true;
}

export function applyFilters(
  records: SearchRecord[],
  filters: SearchFilters | undefined,
): SearchRecord[] {
  return hasFilters(filters)
    ? records.filter((record) => matchesFilters(record, filters))
    : records;
}

/** The filters as a stable string for cache keys (`''` when there are none). */
export function filtersKey(filters: SearchFilters | undefined): string {
  if (!hasFilters(filters)) return '';
  return JSON.stringify([
    filters.yearFrom ?? null,
    filters.yearTo ?? null,
    filters.hasPdf ?? null,
    filters.type ?? null,
    filters.venue ? foldForMatch(filters.venue) : null,
  ]);
}
