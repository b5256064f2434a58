/**
 * OpenAlex (open scholarly works index): `/works?search=` and `/works/{id}` (a W-id, `doi:…` or
 * `pmid:…`). Abstracts arrive as an inverted index (word → positions) and are rebuilt in word order.
 * Related works: the work's `referenced_works` / `related_works` (ids only, resolved with one
 * `filter=openalex:W1|W2|…` request of at most 100 ids), and what cites it (`filter=cites:W…`, most
 * cited first).
 */
import type { ResultType, SearchFilters } from '../filters.js';
import type { OutboundResponse } from '../../platform/outbound.js';
import { ProviderError } from '../provider-error.js';
import {
  arxivIdFromDoi,
  collapseWhitespace,
  decodeHtmlEntities,
  inlineMarkupToText,
  isoDateFromParts,
  isoDateFromString,
  normaliseDoi,
  stripArxivVersion,
  yearOf,
} from '../text.js';
import type { Creator, RecordType } from '../../records/index.js';
import { creatorFromText } from '../../records/index.js';
import type {
  BibliographicDetails,
  ProviderRelatedOptions,
  ProviderSearchAnswer,
  SearchRecord,
  WorkRelation,
} from '../types.js';
import type { ProviderApi } from './define-provider.js';
import { defineProvider } from './define-provider.js';
import { compactDetails, joinedIdentifiers, languageTag, pagesFromEnds } from './details.js';
import { failForStatus, readJson } from './upstream.js';
import { asArray, asHttpUrl, asNumber, asRecord, asString } from './values.js';

/** OpenAlex allows at most 10 requests per second (and 100,000 a day). */
const OPENALEX_REQUESTS_PER_SECOND = 10;
const MAX_PER_PAGE = 100;
const SELECTED_FIELDS = [
  'id',
  'doi',
  'title',
  'display_name',
  'publication_date',
  'publication_year',
  'authorships',
  'abstract_inverted_index',
  'cited_by_count',
  'ids',
  'primary_location',
  'best_oa_location',
  'open_access',
  'type',
  'biblio',
  'language',
].join(',');

/**
 * OpenAlex's work types as CSL types; an `article` in a conference's proceedings is a conference
 * paper (see `openalexDetails`). Reviews, letters and editorials are journal articles (CSL's
 * `review` is a review of another work). Types not listed leave the CSL type unset.
 */
const CSL_TYPES: Readonly<Record<string, RecordType>> = {
  article: 'article-journal',
  review: 'article-journal',
  letter: 'article-journal',
  editorial: 'article-journal',
  erratum: 'article-journal',
  retraction: 'article-journal',
  preprint: 'preprint',
  'book-chapter': 'chapter',
  book: 'book',
  dataset: 'dataset',
  dissertation: 'thesis',
  report: 'report',
  standard: 'standard',
  'reference-entry': 'entry',
  'peer-review': 'review',
  libguides: 'webpage',
};

/** Ids one `filter=openalex:…` request resolves: OpenAlex's limit of values in one OR filter. */
const MAX_IDS_PER_FILTER = 100;

/**
 * The abstract from `abstract_inverted_index`, each word placed at its positions. Tokens can be
 * HTML-escaped (`&amp;lt;75`, `&ldquo;staged.&rdquo`), so they are unescaped after joining.
 */
export function rebuildInvertedAbstract(index: unknown): string {
  const words = asRecord(index);
  if (!words) return '';
  const byPosition: string[] = [];
  for (const [word, positions] of Object.entries(words)) {
    for (const position of asArray(positions)) {
      const at = asNumber(position);
      if (at !== undefined && Number.isInteger(at) && at >= 0 && at < 100_000)
        byPosition[at] = word;
    }
  }
  let text = collapseWhitespace(byPosition.filter((word) => word !== undefined).join(' '));
  // Some double-escaped sources need two rounds (`&amp;lt;` → `&lt;` → `<`).
  for (let round = 0; round < 2 && /&(#\d+|#x[0-9a-f]+|[a-z]+);?/i.test(text); round++) {
    text = decodeHtmlEntities(text);
  }
  // Many publishers' abstracts start with the heading word itself.
  return text.replace(/^abstract[:.]?\s+(?=\p{Lu})/iu, '');
}

/** `https://openalex.org/W4396723768` → `W4396723768`. */
function shortOpenalexId(value: string | undefined): string | undefined {
  const match = value ? /(W\d+)$/i.exec(value) : null;
  return match?.[1]?.toUpperCase();
}

export function openalexWorkToRecord(work: Record<string, unknown>): SearchRecord | null {
  const openalexId = shortOpenalexId(asString(work.id));
  if (!openalexId) return null;
  const ids = asRecord(work.ids);
  const doi = normaliseDoi(asString(work.doi) ?? asString(ids?.doi));
  const pmid = /(\d+)\/?$/.exec(asString(ids?.pmid) ?? '')?.[1];
  const primary = asRecord(work.primary_location);
  const bestOa = asRecord(work.best_oa_location);
  const landing = asHttpUrl(primary?.landing_page_url);
  const arxivFromLanding = /arxiv\.org\/abs\/([^?#]+)/i.exec(landing ?? '')?.[1];
  const arxivId =
    arxivIdFromDoi(doi) ?? (arxivFromLanding ? stripArxivVersion(arxivFromLanding) : undefined);
  const oaUrl = asHttpUrl(asRecord(work.open_access)?.oa_url);
  const pdfUrl =
    asHttpUrl(bestOa?.pdf_url) ??
    asHttpUrl(primary?.pdf_url) ??
    (oaUrl && /\.pdf($|\?)/i.test(oaUrl) ? oaUrl : undefined);
  const publishedDate =
    isoDateFromString(asString(work.publication_date)) ??
    isoDateFromParts(asNumber(work.publication_year));
  const citations = asNumber(work.cited_by_count);
  const venue = asString(asRecord(primary?.source)?.display_name);
  const details = openalexDetails(work);
  return {
    id: `openalex:${openalexId}`,
    provider: 'openalex',
    nativeId: openalexId,
    title: inlineMarkupToText(asString(work.title) ?? asString(work.display_name) ?? ''),
    authors: asArray(work.authorships)
      .map((authorship) => asString(asRecord(asRecord(authorship)?.author)?.display_name))
      .filter((name): name is string => !!name)
      .map(collapseWhitespace),
    abstract: rebuildInvertedAbstract(work.abstract_inverted_index),
    url: doi ? `https://doi.org/${doi}` : (landing ?? `https://openalex.org/${openalexId}`),
    publishedDate,
    year: yearOf(publishedDate),
    citations: citations ?? 0,
    citationsKnown: citations !== undefined,
    score: 0,
    sources: ['openalex'],
    openalexId,
    ...(doi ? { doi } : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(pmid ? { pmid } : {}),
    ...(pdfUrl ? { pdfUrl } : {}),
    ...(venue ? { venue } : {}),
    ...(asString(work.type) ? { type: asString(work.type) } : {}),
    ...(details ? { details } : {}),
  };
}

/**
 * The work's record. Names are read from `raw_author_name`, the name as the work prints it
 * (OpenAlex's `display_name` is its author profile's, which can be another spelling or, when its
 * disambiguation errs, another person), else from the display name. The venue is the primary
 * location's source, unless that is a repository (arXiv, Zenodo): a repository is the publisher of
 * what it holds, not a container.
 */
function openalexDetails(work: Record<string, unknown>): BibliographicDetails | undefined {
  const creators = asArray(work.authorships)
    .map(asRecord)
    .map((authorship) => {
      const name =
        asString(authorship?.raw_author_name) ??
        asString(asRecord(authorship?.author)?.display_name);
      return name ? creatorFromText(collapseWhitespace(name)) : null;
    })
    .filter((creator): creator is Creator => !!creator);
  const source = asRecord(asRecord(work.primary_location)?.source);
  const sourceName = asString(source?.display_name);
  const sourceType = asString(source?.type);
  const host = asString(source?.host_organization_name);
  const isRepository = sourceType === 'repository';
  const workType = asString(work.type) ?? '';
  const type =
    workType === 'article' && sourceType === 'conference'
      ? 'paper-conference'
      : Object.hasOwn(CSL_TYPES, workType)
        ? CSL_TYPES[workType]
        : undefined;
  const biblio = asRecord(work.biblio);
  return compactDetails({
    creators,
    type,
    containerTitle: isRepository ? undefined : sourceName,
    volume: asString(biblio?.volume),
    issue: asString(biblio?.issue),
    pages: pagesFromEnds(asString(biblio?.first_page), asString(biblio?.last_page)),
    // "arXiv (Cornell University)" names its host after the repository: the repository alone.
    publisher: isRepository
      ? sourceName && host
        ? sourceName.replace(` (${host})`, '')
        : sourceName
      : host,
    issn: joinedIdentifiers(asArray(source?.issn).map(asString)),
    language: languageTag(asString(work.language)),
  });
}

/** OpenAlex's work types for each filter type (`|` is an OR within a filter); none: not sent. */
const OPENALEX_TYPES: Partial<Record<ResultType, string>> = {
  article: 'article|review|letter|editorial',
  preprint: 'preprint',
  book: 'book',
  chapter: 'book-chapter',
  dataset: 'dataset',
};

/** OpenAlex's `filter`: `from_publication_date`, `to_publication_date`, `is_oa` and `type`; undefined without filters. */
function openalexFilterParam(filters: SearchFilters = {}): string | undefined {
  const parts: string[] = [];
  if (filters.yearFrom !== undefined) parts.push(`from_publication_date:${filters.yearFrom}-01-01`);
  if (filters.yearTo !== undefined) parts.push(`to_publication_date:${filters.yearTo}-12-31`);
  if (filters.hasPdf) parts.push('is_oa:true');
  const type = filters.type && OPENALEX_TYPES[filters.type];
  if (type) parts.push(`type:${type}`);
  return parts.length > 0 ? parts.join(',') : undefined;
}

/** The `/works/{id}` path segment for a native id: a W-id, `doi:…`, a DOI, or `pmid:…`. */
export function openalexWorkPath(nativeId: string): string | null {
  const id = nativeId.trim();
  const workId = shortOpenalexId(/^(https?:\/\/openalex\.org\/)?W\d+$/i.test(id) ? id : undefined);
  if (workId) return `/works/${workId}`;
  const pmid = /^pmid:(\d+)$/i.exec(id)?.[1];
  if (pmid) return `/works/pmid:${pmid}`;
  const doi = normaliseDoi(id);
  if (doi) return `/works/doi:${encodeURIComponent(doi).replace(/%2F/gi, '/')}`;
  return null;
}

/** The records of a `/works` list answer. */
function readWorkList(response: OutboundResponse): ProviderSearchAnswer {
  const body = asRecord(readJson<unknown>('openalex', response));
  if (!body || !Array.isArray(body.results)) {
    throw new ProviderError('openalex', 'bad_response', 'No results in the reply', response.status);
  }
  const records = body.results
    .map((work) => asRecord(work))
    .filter((work): work is Record<string, unknown> => !!work)
    .map(openalexWorkToRecord)
    .filter((record): record is SearchRecord => !!record);
  return { records, total: asNumber(asRecord(body.meta)?.count) };
}

/**
 * A work's references, citing works or related works. The work is read first (its id, and the id
 * lists of references and related works); the ids of at most `limit` (≤ 100) neighbours are then
 * resolved in one list request, put in the order the work lists them.
 */
async function relatedWorks(
  api: ProviderApi,
  relation: WorkRelation,
  nativeId: string,
  options: ProviderRelatedOptions,
): Promise<ProviderSearchAnswer> {
  const path = openalexWorkPath(nativeId);
  if (!path) return { records: [], total: 0 };
  const query = { mailto: api.contactEmail, api_key: api.apiKey };
  const select =
    relation === 'references'
      ? 'id,referenced_works'
      : relation === 'similar'
        ? 'id,related_works'
        : 'id';
  const workResponse = await api.upstream.get(api.url(path, { select, ...query }), options);
  if (workResponse.status === 404) return { records: [], total: 0 };
  if (workResponse.status !== 200) failForStatus('openalex', workResponse);
  const work = asRecord(readJson<unknown>('openalex', workResponse));
  const workId = shortOpenalexId(asString(work?.id));
  if (!work || !workId)
    throw new ProviderError(
      'openalex',
      'bad_response',
      'No work id in the reply',
      workResponse.status,
    );
  const limit = Math.min(Math.max(1, options.limit), MAX_IDS_PER_FILTER);

  if (relation === 'citations') {
    const url = api.url('/works', {
      filter: `cites:${workId}`,
      sort: 'cited_by_count:desc',
      'per-page': limit,
      select: SELECTED_FIELDS,
      ...query,
    });
    const response = await api.upstream.get(url, options);
    if (response.status !== 200) failForStatus('openalex', response);
    return readWorkList(response);
  }

  const ids = asArray(relation === 'references' ? work.referenced_works : work.related_works)
    .map((id) => shortOpenalexId(asString(id)))
    .filter((id): id is string => !!id);
  const wanted = [...new Set(ids)].slice(0, limit);
  if (wanted.length === 0) return { records: [], total: ids.length };
  const url = api.url('/works', {
    filter: `openalex:${wanted.join('|')}`,
    'per-page': wanted.length,
    select: SELECTED_FIELDS,
    ...query,
  });
  const response = await api.upstream.get(url, options);
  if (response.status !== 200) failForStatus('openalex', response);
  // In the order the work lists them (the filter's answer comes in OpenAlex's own order).
  const order = new Map(wanted.map((id, index) => [id, index]));
  const position = (record: SearchRecord) => order.get(record.nativeId) ?? wanted.length;
  const records = readWorkList(response).records.sort((a, b) => position(a) - position(b));
  return { records, total: ids.length };
}

export const createOpenalexProvider = defineProvider({
  id: 'openalex',
  name: 'OpenAlex',
  description: 'Open index of scholarly works, authors and venues, with open-access locations.',
  rate: { requestsPerSecond: OPENALEX_REQUESTS_PER_SECOND, maxConcurrency: 5 },
  accept: 'application/json',

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    const url = api.url('/works', {
      search: query,
      filter: openalexFilterParam(filters),
      'per-page': Math.min(Math.max(1, limit), MAX_PER_PAGE),
      select: SELECTED_FIELDS,
      mailto: api.contactEmail,
      api_key: api.apiKey,
    });
    const response = await api.upstream.get(url, { signal, deadlineAt });
    if (response.status !== 200) failForStatus('openalex', response);
    return readWorkList(response);
  },

  async lookup(api, nativeId, options) {
    const path = openalexWorkPath(nativeId);
    if (!path) return null;
    const response = await api.upstream.get(
      api.url(path, { mailto: api.contactEmail, api_key: api.apiKey }),
      options,
    );
    // OpenAlex answers an unknown work with an HTML 404 page.
    if (response.status === 404) return null;
    if (response.status !== 200) failForStatus('openalex', response);
    const work = asRecord(readJson<unknown>('openalex', response));
    return work ? openalexWorkToRecord(work) : null;
  },

  related: relatedWorks,
});
