/**
 * Semantic Scholar (scholarly graph): `/paper/search` and `/paper/{id}` of the Graph API. A zero-hit
 * search is `{ total: 0, offset: 0 }` without `data`; `openAccessPdf` may be null or have an empty url.
 * Related works: `/paper/{id}/references` (`data[].citedPaper`), `/paper/{id}/citations`
 * (`data[].citingPaper`), and the Recommendations API's `/papers/forpaper/{id}` (`recommendedPapers`),
 * which lives beside the Graph API: its address is the base address with `/graph/v1` replaced by
 * `/recommendations/v1`. A reference the graph could not match has `paperId: null` and is left out.
 */
import type { ResultType, SearchFilters } from '../filters.js';
import { ProviderError } from '../provider-error.js';
import {
  collapseWhitespace,
  isoDateFromParts,
  isoDateFromString,
  normaliseDoi,
  stripArxivVersion,
  yearOf,
} from '../text.js';
import type { RecordType } from '../../records/index.js';
import type {
  BibliographicDetails,
  ProviderRelatedOptions,
  ProviderSearchAnswer,
  SearchRecord,
  WorkRelation,
} from '../types.js';
import type { ProviderApi } from './define-provider.js';
import { defineProvider } from './define-provider.js';
import { compactDetails, creatorsFromNames, joinedIdentifiers, pagesText } from './details.js';
import { failForStatus, joinUrl, readJson } from './upstream.js';
import { asArray, asHttpUrl, asNumber, asRecord, asString } from './values.js';

/** The introductory rate of an API key is 1 request per second; the keyless pool is shared and smaller. */
const SEMANTICSCHOLAR_REQUESTS_PER_SECOND = 1;
const MAX_LIMIT = 100;
const PAPER_FIELDS = [
  'title',
  'abstract',
  'authors',
  'year',
  'publicationDate',
  'citationCount',
  'externalIds',
  'url',
  'openAccessPdf',
  'venue',
  'publicationTypes',
  'journal',
  'publicationVenue',
].join(',');

/**
 * Semantic Scholar's publication types as CSL types, the first that a paper lists in this order
 * winning: it marks a conference paper `JournalArticle` and `Conference`, proceedings `Book` too.
 */
const CSL_TYPES: ReadonlyArray<[string, RecordType]> = [
  ['Conference', 'paper-conference'],
  ['BookSection', 'chapter'],
  ['Book', 'book'],
  ['Dataset', 'dataset'],
  ['JournalArticle', 'article-journal'],
  ['Review', 'article-journal'],
  ['LettersAndComments', 'article-journal'],
  ['Editorial', 'article-journal'],
  ['CaseReport', 'article-journal'],
  ['ClinicalTrial', 'article-journal'],
  ['MetaAnalysis', 'article-journal'],
  ['Study', 'article-journal'],
  ['News', 'article-newspaper'],
];

/** "ArXiv", "arXiv.org", "arXiv: Learning": the preprint server, which is no journal. */
const ARXIV_VENUE = /^arxiv\b/i;

export function semanticScholarPaperToRecord(paper: Record<string, unknown>): SearchRecord | null {
  const paperId = asString(paper.paperId);
  if (!paperId) return null;
  const external = asRecord(paper.externalIds);
  const doi = normaliseDoi(asString(external?.DOI));
  const arxiv = asString(external?.ArXiv);
  const pmid = asString(external?.PubMed);
  const pdfUrl = asHttpUrl(asRecord(paper.openAccessPdf)?.url);
  const publishedDate =
    isoDateFromString(asString(paper.publicationDate)) ?? isoDateFromParts(asNumber(paper.year));
  const citations = asNumber(paper.citationCount);
  const venue = asString(paper.venue);
  const types = asArray(paper.publicationTypes).map(asString).filter(Boolean);
  const details = semanticScholarDetails(paper, types as string[]);
  return {
    id: `semanticscholar:${paperId}`,
    provider: 'semanticscholar',
    nativeId: paperId,
    title: collapseWhitespace(asString(paper.title) ?? ''),
    authors: asArray(paper.authors)
      .map((author) => asString(asRecord(author)?.name))
      .filter((name): name is string => !!name)
      .map(collapseWhitespace),
    abstract: collapseWhitespace(asString(paper.abstract) ?? ''),
    url: asHttpUrl(paper.url) ?? `https://www.semanticscholar.org/paper/${paperId}`,
    publishedDate,
    year: yearOf(publishedDate),
    citations: citations ?? 0,
    citationsKnown: citations !== undefined,
    score: 0,
    sources: ['semanticscholar'],
    ...(doi ? { doi } : {}),
    ...(arxiv ? { arxivId: stripArxivVersion(arxiv) } : {}),
    ...(pmid ? { pmid } : {}),
    ...(pdfUrl ? { pdfUrl } : {}),
    ...(venue ? { venue } : {}),
    ...(types[0] ? { type: types[0] } : {}),
    ...(details ? { details } : {}),
  };
}

/**
 * The paper's record. `journal` gives the venue's name as the paper's source prints it, with volume
 * and pages; for an arXiv preprint it is `{ name: "ArXiv", volume: "abs/…" }`, which is no journal.
 * A volume of two numbers (`"28 8"`, from PubMed) is volume and issue.
 */
function semanticScholarDetails(
  paper: Record<string, unknown>,
  types: string[],
): BibliographicDetails | undefined {
  const journal = asRecord(paper.journal);
  const journalName = collapseWhitespace(asString(journal?.name) ?? '');
  const venue = collapseWhitespace(asString(paper.venue) ?? '');
  const onArxiv = ARXIV_VENUE.test(journalName);
  const containerTitle = [journalName, venue].find((name) => name && !ARXIV_VENUE.test(name));
  const volumeText = onArxiv ? '' : collapseWhitespace(asString(journal?.volume) ?? '');
  const [volume, issue] = /^\d+ \d+$/.test(volumeText) ? volumeText.split(' ') : [volumeText];
  const publicationVenue = asRecord(paper.publicationVenue);
  const listed = CSL_TYPES.find(([name]) => types.includes(name))?.[1];
  const atConference =
    asString(publicationVenue?.type) === 'conference' &&
    (listed === undefined || listed === 'article-journal');
  // Only arXiv said to be the venue: a preprint, whatever `publicationTypes` says.
  const type =
    onArxiv && (!venue || ARXIV_VENUE.test(venue))
      ? 'preprint'
      : atConference
        ? 'paper-conference'
        : listed;
  return compactDetails({
    creators: creatorsFromNames(
      asArray(paper.authors)
        .map((author) => asString(asRecord(author)?.name))
        .filter((name): name is string => !!name),
    ),
    type,
    containerTitle: type === 'preprint' ? undefined : containerTitle,
    volume,
    issue,
    pages: onArxiv ? undefined : pagesText(asString(journal?.pages), { reversed: true }),
    issn: ARXIV_VENUE.test(asString(publicationVenue?.name) ?? '')
      ? undefined
      : joinedIdentifiers([
          asString(publicationVenue?.issn),
          ...asArray(publicationVenue?.alternate_issns).map(asString),
        ]),
  });
}

/** Semantic Scholar's `publicationTypes` for each filter type; none (it has no preprint type): not sent. */
const SEMANTICSCHOLAR_TYPES: Partial<Record<ResultType, string>> = {
  article: 'JournalArticle,Review',
  book: 'Book',
  chapter: 'BookSection',
  conference: 'Conference',
  dataset: 'Dataset',
};

/**
 * The Graph API's filter parameters: `year` (`2019-2021`, `2019-`, `-2021`), `publicationTypes`, `venue`,
 * and `openAccessPdf`, a parameter without a value (added to the address by the caller).
 */
function semanticScholarFilterParams(filters: SearchFilters = {}): {
  year?: string;
  publicationTypes?: string;
  venue?: string;
} {
  const year =
    filters.yearFrom !== undefined || filters.yearTo !== undefined
      ? `${filters.yearFrom ?? ''}-${filters.yearTo ?? ''}`
      : undefined;
  const publicationTypes = filters.type && SEMANTICSCHOLAR_TYPES[filters.type];
  return {
    ...(year ? { year } : {}),
    ...(publicationTypes ? { publicationTypes } : {}),
    ...(filters.venue ? { venue: filters.venue } : {}),
  };
}

/** The Graph API's largest page of references or citations; the Recommendations API allows 500. */
const MAX_RELATED_LIMIT = 100;

/** `/paper/{id}` with the id's `/` and `:` kept (DOIs, `ARXIV:…`). */
function paperPath(id: string): string {
  return `/paper/${encodeURIComponent(id).replace(/%2F/gi, '/').replace(/%3A/gi, ':')}`;
}

/** A Recommendations API path below the Graph API's base address (see the module comment). */
function recommendationsUrl(
  api: ProviderApi,
  path: string,
  query: Record<string, string | number | undefined>,
): string {
  const base = api
    .url('')
    .replace(/\/+$/, '')
    .replace(/\/graph\/v1$/, '');
  return joinUrl(base, `/recommendations/v1${path}`, query);
}

async function relatedPapers(
  api: ProviderApi,
  relation: WorkRelation,
  nativeId: string,
  options: ProviderRelatedOptions,
): Promise<ProviderSearchAnswer> {
  const id = nativeId.trim();
  if (!id) return { records: [], total: 0 };
  const limit = Math.min(Math.max(1, options.limit), MAX_RELATED_LIMIT);
  const url =
    relation === 'similar'
      ? recommendationsUrl(api, `/papers/forpaper/${paperPath(id).slice('/paper/'.length)}`, {
          fields: PAPER_FIELDS,
          limit,
        })
      : api.url(`${paperPath(id)}/${relation}`, { fields: PAPER_FIELDS, offset: 0, limit });
  const response = await api.upstream.get(url, options);
  if (response.status === 404) return { records: [], total: 0 };
  if (response.status !== 200)
    failForStatus('semanticscholar', response, errorDetail(response.text()));
  const body = asRecord(readJson<unknown>('semanticscholar', response));
  if (!body)
    throw new ProviderError(
      'semanticscholar',
      'bad_response',
      'Reply is not an object',
      response.status,
    );
  const papers =
    relation === 'similar'
      ? asArray(body.recommendedPapers)
      : asArray(body.data).map(
          (edge) => asRecord(edge)?.[relation === 'references' ? 'citedPaper' : 'citingPaper'],
        );
  const records = papers
    .map((paper) => asRecord(paper))
    .filter((paper): paper is Record<string, unknown> => !!paper)
    .map(semanticScholarPaperToRecord)
    .filter((record): record is SearchRecord => !!record);
  return { records };
}

function errorDetail(body: string): string {
  try {
    const json = asRecord(JSON.parse(body));
    const message = asString(json?.message) ?? asString(json?.error);
    if (message) return message;
  } catch {
    // not JSON
  }
  return collapseWhitespace(body).slice(0, 200);
}

export const createSemanticScholarProvider = defineProvider({
  id: 'semanticscholar',
  name: 'Semantic Scholar',
  description: 'AI-assisted scholarly graph of papers, authors and citations across all fields.',
  rate: { requestsPerSecond: SEMANTICSCHOLAR_REQUESTS_PER_SECOND, maxConcurrency: 1 },
  accept: 'application/json',
  headers: ({ apiKey }): Record<string, string> => (apiKey ? { 'x-api-key': apiKey } : {}),

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    const address = api.url('/paper/search', {
      // The Graph API finds nothing for hyphenated terms and asks for spaces instead.
      query: query.replace(/-/g, ' '),
      limit: Math.min(Math.max(1, limit), MAX_LIMIT),
      offset: 0,
      fields: PAPER_FIELDS,
      ...semanticScholarFilterParams(filters),
    });
    const url = filters?.hasPdf ? `${address}&openAccessPdf` : address;
    const response = await api.upstream.get(url, { signal, deadlineAt });
    if (response.status !== 200)
      failForStatus('semanticscholar', response, errorDetail(response.text()));
    const body = asRecord(readJson<unknown>('semanticscholar', response));
    if (!body)
      throw new ProviderError(
        'semanticscholar',
        'bad_response',
        'Reply is not an object',
        response.status,
      );
    const records = asArray(body.data)
      .map((paper) => asRecord(paper))
      .filter((paper): paper is Record<string, unknown> => !!paper)
      .map(semanticScholarPaperToRecord)
      .filter((record): record is SearchRecord => !!record);
    return { records, total: asNumber(body.total) };
  },

  async lookup(api, nativeId, options) {
    const id = nativeId.trim();
    if (!id) return null;
    const response = await api.upstream.get(
      api.url(paperPath(id), { fields: PAPER_FIELDS }),
      options,
    );
    if (response.status === 404) return null;
    if (response.status !== 200)
      failForStatus('semanticscholar', response, errorDetail(response.text()));
    const paper = asRecord(readJson<unknown>('semanticscholar', response));
    return paper ? semanticScholarPaperToRecord(paper) : null;
  },

  related: relatedPapers,
});
