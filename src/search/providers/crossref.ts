/**
 * Crossref (DOI registry): `/works?query=` and `/works/{doi}`. Titles are lists, abstracts are JATS XML,
 * dates are `date-parts`; an unknown DOI is a plain-text 404.
 */
import type { ResultType, SearchFilters } from '../filters.js';
import { ProviderError } from '../provider-error.js';
import {
  arxivIdFromDoi,
  collapseWhitespace,
  inlineMarkupToText,
  isoDateFromParts,
  markupToText,
  normaliseDoi,
  yearOf,
} from '../text.js';
import type { Creator, CreatorRole, RecordType } from '../../records/index.js';
import type { BibliographicDetails, ProviderSearchAnswer, SearchRecord } from '../types.js';
import { defineProvider } from './define-provider.js';
import {
  compactDetails,
  creatorFromParts,
  joinedIdentifiers,
  languageTag,
  pagesText,
} from './details.js';
import { failForStatus, readJson } from './upstream.js';
import { asArray, asHttpUrl, asNumber, asRecord, asString } from './values.js';

/**
 * Crossref's published limits: the public pool allows 5 requests per second with 1 at a time; the
 * polite pool (requests carrying a `mailto`) 10 per second with 3 at a time.
 */
const CROSSREF_PUBLIC_RATE = { requestsPerSecond: 5, maxConcurrency: 1 };
const CROSSREF_POLITE_RATE = { requestsPerSecond: 10, maxConcurrency: 3 };
const MAX_ROWS = 100;
/** Only the fields used; a full work carries its reference list and can weigh 100 kB. */
const SELECTED_FIELDS = [
  'DOI',
  'title',
  'author',
  'abstract',
  'published',
  'published-print',
  'published-online',
  'issued',
  'created',
  'is-referenced-by-count',
  'URL',
  'link',
  'type',
  'container-title',
  'resource',
  'editor',
  'translator',
  'chair',
  'volume',
  'issue',
  'page',
  'article-number',
  'publisher',
  'ISSN',
  'ISBN',
  'language',
].join(',');

/**
 * Crossref's work types as CSL types (Crossref's own CSL-JSON maps them almost one to one). Types
 * not listed (`component`, `grant`, `other`, …) leave the CSL type unset.
 */
const CSL_TYPES: Readonly<Record<string, RecordType>> = {
  'journal-article': 'article-journal',
  'proceedings-article': 'paper-conference',
  'posted-content': 'preprint',
  'book-chapter': 'chapter',
  'book-section': 'chapter',
  'book-part': 'chapter',
  book: 'book',
  monograph: 'book',
  'edited-book': 'book',
  'reference-book': 'book',
  'book-set': 'book',
  'book-track': 'book',
  proceedings: 'book',
  'reference-entry': 'entry',
  dataset: 'dataset',
  database: 'dataset',
  dissertation: 'thesis',
  report: 'report',
  'report-component': 'report',
  standard: 'standard',
  'peer-review': 'review',
  journal: 'periodical',
  'journal-issue': 'periodical',
  'journal-volume': 'periodical',
};

/** Crossref's name lists and the role each gives. */
const NAME_LISTS: ReadonlyArray<[string, CreatorRole]> = [
  ['author', 'author'],
  ['editor', 'editor'],
  ['translator', 'translator'],
  ['chair', 'chair'],
];

/** Crossref's work types for each filter type (the same filter name repeated is an OR); none: not sent. */
const CROSSREF_TYPES: Partial<Record<ResultType, string[]>> = {
  article: ['journal-article'],
  preprint: ['posted-content'],
  book: ['book', 'monograph', 'edited-book', 'reference-book'],
  chapter: ['book-chapter', 'book-section', 'book-part'],
  conference: ['proceedings-article'],
  dataset: ['dataset'],
};

/** Crossref's `filter` (`from-pub-date`, `until-pub-date`, `has-full-text`, `type`) and `query.container-title` for the venue. */
function crossrefFilterParams(filters: SearchFilters = {}): {
  filter?: string;
  'query.container-title'?: string;
} {
  const parts: string[] = [];
  if (filters.yearFrom !== undefined) parts.push(`from-pub-date:${filters.yearFrom}`);
  if (filters.yearTo !== undefined) parts.push(`until-pub-date:${filters.yearTo}`);
  if (filters.hasPdf) parts.push('has-full-text:true');
  for (const type of (filters.type && CROSSREF_TYPES[filters.type]) || [])
    parts.push(`type:${type}`);
  return {
    ...(parts.length > 0 ? { filter: parts.join(',') } : {}),
    ...(filters.venue ? { 'query.container-title': filters.venue } : {}),
  };
}

export function crossrefWorkToRecord(work: Record<string, unknown>): SearchRecord | null {
  const doi = normaliseDoi(asString(work.DOI));
  if (!doi) return null;
  const nativeId = asString(work.DOI)?.trim() ?? doi;
  const title = inlineMarkupToText(asArray(work.title).map(asString).filter(Boolean).join(' '));
  const publishedDate =
    dateFromParts(work.published) ??
    earliestOf(dateFromParts(work['published-print']), dateFromParts(work['published-online'])) ??
    dateFromParts(work.issued) ??
    dateFromParts(work.created);
  const citations = asNumber(work['is-referenced-by-count']);
  const pdfLink = asArray(work.link)
    .map(asRecord)
    .find((link) => asString(link?.['content-type']) === 'application/pdf');
  const pdfUrl = asHttpUrl(pdfLink?.URL);
  const landing = asHttpUrl(asRecord(asRecord(work.resource)?.primary)?.URL);
  const venue = asString(asArray(work['container-title'])[0]);
  const arxivId = arxivIdFromDoi(doi);
  const details = crossrefDetails(work);
  return {
    id: `crossref:${nativeId}`,
    provider: 'crossref',
    nativeId,
    title,
    authors: readAuthors(work.author),
    abstract: markupToText(asString(work.abstract) ?? ''),
    url: asHttpUrl(work.URL) ?? landing ?? `https://doi.org/${nativeId}`,
    publishedDate,
    year: yearOf(publishedDate),
    citations: citations ?? 0,
    citationsKnown: citations !== undefined,
    score: 0,
    sources: ['crossref'],
    doi,
    ...(arxivId ? { arxivId } : {}),
    ...(pdfUrl ? { pdfUrl } : {}),
    ...(venue ? { venue: inlineMarkupToText(venue) } : {}),
    ...(asString(work.type) ? { type: asString(work.type) } : {}),
    ...(details ? { details } : {}),
  };
}

/** The work's record: names by role, CSL type, venue, volume, issue, pages, publisher, ISSN, ISBN. */
function crossrefDetails(work: Record<string, unknown>): BibliographicDetails | undefined {
  const creators: Creator[] = [];
  for (const [list, role] of NAME_LISTS) {
    for (const name of asArray(work[list]).map(asRecord)) {
      const creator =
        name &&
        creatorFromParts(role, {
          literal: asString(name.name),
          family: asString(name.family),
          given: asString(name.given),
          suffix: asString(name.suffix),
        });
      if (creator) creators.push(creator);
    }
  }
  const container = asString(asArray(work['container-title'])[0]);
  const type = asString(work.type);
  return compactDetails({
    creators,
    type: type && Object.hasOwn(CSL_TYPES, type) ? CSL_TYPES[type] : undefined,
    containerTitle: container ? inlineMarkupToText(container) : undefined,
    volume: asString(work.volume),
    issue: asString(work.issue),
    // Publishers write some ranges as MEDLINE does (`1116-22`); an article number stands for pages.
    pages: pagesText(asString(work.page) ?? asString(work['article-number']), {
      abbreviated: true,
    }),
    publisher: inlineMarkupToText(asString(work.publisher) ?? ''),
    issn: joinedIdentifiers(asArray(work.ISSN).map(asString)),
    isbn: joinedIdentifiers(asArray(work.ISBN).map(asString)),
    language: languageTag(asString(work.language)),
  });
}

function readAuthors(authors: unknown): string[] {
  return asArray(authors)
    .map(asRecord)
    .map((author) => {
      if (!author) return '';
      const name = asString(author.name);
      if (name) return collapseWhitespace(name);
      return collapseWhitespace(
        [asString(author.given), asString(author.family)].filter(Boolean).join(' '),
      );
    })
    .filter(Boolean);
}

/** `{ "date-parts": [[2024, 5, 8]] }` → `2024-05-08` (or `2024-05` / `2024` at lower precision). */
function dateFromParts(value: unknown): string | null {
  const parts = asArray(asRecord(value)?.['date-parts'])[0];
  if (!Array.isArray(parts)) return null;
  const [year, month, day] = parts.map((part) => asNumber(part));
  return isoDateFromParts(year, month, day);
}

function earliestOf(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a.slice(0, 10) <= b.slice(0, 10) ? a : b;
}

/** A Crossref error body's message (JSON `message` is a list of `{message}`; a 404 may be plain text). */
function errorDetail(body: string): string {
  try {
    const json = asRecord(JSON.parse(body));
    const messages = asArray(json?.message)
      .map((item) => asString(asRecord(item)?.message) ?? asString(item))
      .filter(Boolean);
    if (messages.length > 0) return messages.join('; ');
  } catch {
    // plain text
  }
  return collapseWhitespace(body).slice(0, 200);
}

export const createCrossrefProvider = defineProvider({
  id: 'crossref',
  name: 'Crossref',
  description:
    'DOI registration agency: metadata of journal articles, books, conference papers and datasets.',
  rate: ({ contactEmail }) => (contactEmail ? CROSSREF_POLITE_RATE : CROSSREF_PUBLIC_RATE),
  accept: 'application/json',

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    const url = api.url('/works', {
      query,
      ...crossrefFilterParams(filters),
      rows: Math.min(Math.max(1, limit), MAX_ROWS),
      select: SELECTED_FIELDS,
      mailto: api.contactEmail,
    });
    const response = await api.upstream.get(url, { signal, deadlineAt });
    if (response.status !== 200) failForStatus('crossref', response, errorDetail(response.text()));
    const body = asRecord(readJson<unknown>('crossref', response));
    const message = asRecord(body?.message);
    if (!message || !Array.isArray(message.items)) {
      throw new ProviderError(
        'crossref',
        'bad_response',
        'No message.items in the reply',
        response.status,
      );
    }
    const records = message.items
      .map((item) => asRecord(item))
      .filter((item): item is Record<string, unknown> => !!item)
      .map(crossrefWorkToRecord)
      .filter((record): record is SearchRecord => !!record);
    return { records, total: asNumber(message['total-results']) };
  },

  async lookup(api, nativeId, options) {
    const doi = normaliseDoi(nativeId);
    if (!doi) return null;
    const path = `/works/${encodeURIComponent(doi).replace(/%2F/gi, '/')}`;
    const response = await api.upstream.get(api.url(path, { mailto: api.contactEmail }), options);
    if (response.status === 404) return null;
    if (response.status !== 200) failForStatus('crossref', response, errorDetail(response.text()));
    const message = asRecord(asRecord(readJson<unknown>('crossref', response))?.message);
    if (!message)
      throw new ProviderError(
        'crossref',
        'bad_response',
        'No message in the reply',
        response.status,
      );
    return crossrefWorkToRecord(message);
  },
});
