/**
 * arXiv (preprint server): the Atom API at `<base>/query`. Both feed generations are read the same way
 * (namespace prefixes are dropped). Ids keep the version the API reports (`2005.14124v2`).
 */
import type { SearchFilters } from '../filters.js';
import { ProviderError } from '../provider-error.js';
import {
  collapseWhitespace,
  isoDateFromString,
  normaliseDoi,
  stripArxivVersion,
  yearOf,
} from '../text.js';
import type { ProviderSearchAnswer, SearchRecord } from '../types.js';
import { defineProvider } from './define-provider.js';
import { compactDetails, creatorsFromNames } from './details.js';
import type { ProviderApi } from './define-provider.js';
import { failForStatus } from './upstream.js';
import {
  asArray,
  asHttpUrl,
  asNumber,
  asRecord,
  asString,
  createXmlParser,
  xmlText,
} from './values.js';

/** arXiv asks for no more than one request every three seconds, one connection at a time. */
const ARXIV_REQUESTS_PER_SECOND = 1 / 3;
const MAX_RESULTS = 100;
/** Long queries are cut to their first terms: every term is ANDed, so more terms only lose recall. */
const MAX_QUERY_TERMS = 12;

const feedParser = createXmlParser({ arrays: ['entry', 'author', 'link', 'category'] });

interface ArxivFeed {
  records: SearchRecord[];
  total?: number;
  /** The message of an error feed (an entry titled "Error" whose id points at /api/errors). */
  error?: string;
}

/** `search_query` for free text: every word must appear somewhere (`all:`); arXiv's own operators are not exposed. */
export function toArxivSearchQuery(query: string): string {
  const terms = query.match(/[\p{L}\p{N}][\p{L}\p{N}'\-.]*/gu) ?? [];
  return terms
    .slice(0, MAX_QUERY_TERMS)
    .map((term) => `all:${term.replace(/[.'-]+$/, '')}`)
    .join(' AND ');
}

/**
 * The `search_query` with the filters arXiv supports: a year range as `submittedDate:[YYYYMMDDHHMM TO …]`
 * (both ends are required; an open end is arXiv's first year or 9999).
 */
function toArxivFilteredQuery(query: string, filters: SearchFilters = {}): string {
  const searchQuery = toArxivSearchQuery(query);
  if (!searchQuery || (filters.yearFrom === undefined && filters.yearTo === undefined))
    return searchQuery;
  return `${searchQuery} AND submittedDate:[${filters.yearFrom ?? 1991}01010000 TO ${filters.yearTo ?? 9999}12312359]`;
}

export function parseArxivFeed(xml: string): ArxivFeed {
  const parsed = asRecord(feedParser.parse(xml));
  const feed = asRecord(parsed?.feed);
  if (!feed) throw new Error('Not an Atom feed');
  const total = asNumber(xmlText(feed.totalResults));
  const records: SearchRecord[] = [];
  for (const entryNode of asArray(feed.entry)) {
    const entry = asRecord(entryNode);
    if (!entry) continue;
    const entryId = xmlText(entry.id) ?? '';
    if (entryId.includes('/api/errors')) {
      return {
        records: [],
        total: 0,
        error: collapseWhitespace(xmlText(entry.summary) ?? 'arXiv API error'),
      };
    }
    const record = entryToRecord(entry);
    if (record) records.push(record);
  }
  return { records, total };
}

function entryToRecord(entry: Record<string, unknown>): SearchRecord | null {
  const absUrl = xmlText(entry.id) ?? '';
  const match = /arxiv\.org\/abs\/(.+)$/i.exec(absUrl);
  const nativeId = match?.[1]?.trim();
  if (!nativeId) return null;
  const links = asArray(entry.link)
    .map(asRecord)
    .filter((link): link is Record<string, unknown> => !!link);
  const alternate = links.find((link) => link.rel === 'alternate');
  const pdf = links.find((link) => link.title === 'pdf' || link.type === 'application/pdf');
  const publishedDate = isoDateFromString(xmlText(entry.published));
  const doi = normaliseDoi(xmlText(entry.doi));
  const primaryCategory = asString(asRecord(entry.primary_category)?.term);
  const authors = asArray(entry.author)
    .map((author) => collapseWhitespace(xmlText(asRecord(author)?.name) ?? ''))
    .filter(Boolean);
  // A preprint: its repository is its publisher, and it has no container (the journal of a
  // `journal_ref` is another version's, found by its DOI; the category stays in `venue`).
  const details = compactDetails({
    creators: creatorsFromNames(authors),
    type: 'preprint',
    publisher: 'arXiv',
  });
  return {
    id: `arxiv:${nativeId}`,
    provider: 'arxiv',
    nativeId,
    title: collapseWhitespace(xmlText(entry.title) ?? ''),
    authors,
    abstract: collapseWhitespace(xmlText(entry.summary) ?? ''),
    url: asHttpUrl(alternate?.href) ?? `https://arxiv.org/abs/${nativeId}`,
    publishedDate,
    year: yearOf(publishedDate),
    citations: 0,
    citationsKnown: false,
    score: 0,
    sources: ['arxiv'],
    arxivId: stripArxivVersion(nativeId),
    ...(doi ? { doi } : {}),
    pdfUrl: asHttpUrl(pdf?.href) ?? `https://arxiv.org/pdf/${nativeId}`,
    ...(primaryCategory ? { venue: `arXiv ${primaryCategory}` } : {}),
    type: 'preprint',
    ...(details ? { details } : {}),
  };
}

/** Fetches one Atom feed; an error feed comes back as `feed.error` with the status it came with. */
async function fetchFeed(
  api: ProviderApi,
  query: Record<string, string | number>,
  signal?: AbortSignal,
  deadlineAt?: number,
) {
  const response = await api.upstream.get(api.url('/query', query), { signal, deadlineAt });
  let feed: ArxivFeed;
  try {
    feed = parseArxivFeed(response.text());
  } catch {
    if (response.status !== 200) failForStatus('arxiv', response);
    throw new ProviderError('arxiv', 'bad_response', 'Body is not an Atom feed', response.status);
  }
  return { status: response.status, feed, response };
}

export const createArxivProvider = defineProvider({
  id: 'arxiv',
  name: 'arXiv',
  description:
    'Preprint server for physics, mathematics, computer science, quantitative biology and more.',
  rate: { requestsPerSecond: ARXIV_REQUESTS_PER_SECOND, maxConcurrency: 1 },
  accept: 'application/atom+xml',

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    const searchQuery = toArxivFilteredQuery(query, filters);
    // arXiv holds preprints only: asking for another type needs no request.
    if (!searchQuery || (filters?.type && filters.type !== 'preprint'))
      return { records: [], total: 0 };
    const { status, feed, response } = await fetchFeed(
      api,
      {
        search_query: searchQuery,
        start: 0,
        max_results: Math.min(Math.max(1, limit), MAX_RESULTS),
        sortBy: 'relevance',
        sortOrder: 'descending',
      },
      signal,
      deadlineAt,
    );
    if (feed.error) throw new ProviderError('arxiv', 'upstream', feed.error, status);
    if (status !== 200) failForStatus('arxiv', response);
    return { records: feed.records, total: feed.total };
  },

  async lookup(api, nativeId, { signal, deadlineAt }) {
    const { status, feed, response } = await fetchFeed(
      api,
      { id_list: nativeId.trim(), max_results: 1 },
      signal,
      deadlineAt,
    );
    // An id arXiv cannot parse comes back as a 400 error feed: no such record.
    if (feed.error && status === 400) return null;
    if (feed.error) throw new ProviderError('arxiv', 'upstream', feed.error, status);
    if (status !== 200) failForStatus('arxiv', response);
    return feed.records[0] ?? null;
  },
});
