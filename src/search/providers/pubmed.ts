/**
 * PubMed (medical literature index) through NCBI E-utilities: `esearch` for the ids in relevance order,
 * then `efetch` (XML) for titles, authors, dates and abstracts. E-utilities report some errors as
 * HTTP 200 bodies (`<ERROR>`, `<ErrorList>`), so bodies are checked, not only statuses.
 */
import type { SearchFilters } from '../filters.js';
import { ProviderError } from '../provider-error.js';
import {
  collapseWhitespace,
  inlineMarkupToText,
  isoDateFromParts,
  markupToText,
  normaliseDoi,
  parseMonth,
  yearOf,
} from '../text.js';
import type { Creator, CreatorRole, RecordType } from '../../records/index.js';
import { dateFromIso, isoDateOf } from '../../records/index.js';
import type { BibliographicDetails, ProviderSearchAnswer, SearchRecord } from '../types.js';
import { defineProvider } from './define-provider.js';
import type { ProviderApi } from './define-provider.js';
import {
  compactDetails,
  creatorFromParts,
  joinedIdentifiers,
  languageTag,
  pagesFromEnds,
  pagesText,
} from './details.js';
import { failForStatus } from './upstream.js';
import { asArray, asNumber, asRecord, asString, createXmlParser, xmlText } from './values.js';

/** NCBI allows 3 requests per second without an API key. */
const PUBMED_REQUESTS_PER_SECOND = 3;
const MAX_RESULTS = 100;
const TOOL_NAME = 'research-workspace';

const esearchParser = createXmlParser({ arrays: ['Id'] });
const efetchParser = createXmlParser({
  arrays: [
    'PubmedArticle',
    'PubmedBookArticle',
    'AbstractText',
    'Author',
    'ArticleId',
    'ELocationID',
    'ArticleDate',
    'AuthorList',
    'Language',
    'PublicationType',
  ],
  // Titles and abstracts carry inline markup (<i>, <sub>, <sup>); they are read raw and converted in order.
  stopNodes: ['*.ArticleTitle', '*.AbstractText', '*.VernacularTitle', '*.BookTitle'],
});

export interface PubmedIdList {
  ids: string[];
  total: number;
}

/** Reads an esearch reply, XML or JSON. A phrase that matches nothing is an empty list, not an error. */
export function parseEsearch(body: string): PubmedIdList {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) {
    const json = asRecord(JSON.parse(trimmed));
    const result = asRecord(json?.esearchresult);
    if (!result) throw new Error('esearch JSON without esearchresult');
    const error = asString(result.ERROR);
    if (error) throw new EutilsError(error);
    return {
      ids: asArray(result.idlist)
        .map(asString)
        .filter((id): id is string => !!id),
      total: asNumber(result.count) ?? 0,
    };
  }
  const parsed = asRecord(esearchParser.parse(trimmed));
  const result = asRecord(parsed?.eSearchResult);
  if (!result) throw new Error('Not an eSearchResult');
  const error = xmlText(result.ERROR);
  if (error) throw new EutilsError(error);
  const idList = asRecord(result.IdList);
  return {
    ids: asArray(idList?.Id)
      .map(xmlText)
      .filter((id): id is string => !!id),
    total: asNumber(xmlText(result.Count)) ?? 0,
  };
}

class EutilsError extends Error {}

/** Reads an efetch PubmedArticleSet into records, in document order. */
export function parseEfetch(body: string): SearchRecord[] {
  const parsed = asRecord(efetchParser.parse(body));
  if (!parsed) throw new Error('Empty efetch body');
  for (const rootName of ['eFetchResult', 'eSummaryResult']) {
    const error = xmlText(asRecord(parsed[rootName])?.ERROR);
    if (error) throw new EutilsError(error);
  }
  const set = asRecord(parsed.PubmedArticleSet);
  if (!set) {
    if ('PubmedArticleSet' in parsed) return [];
    throw new Error('Not a PubmedArticleSet');
  }
  const records: SearchRecord[] = [];
  for (const article of asArray(set.PubmedArticle)) {
    const record = articleToRecord(asRecord(article));
    if (record) records.push(record);
  }
  for (const book of asArray(set.PubmedBookArticle)) {
    const record = bookToRecord(asRecord(book));
    if (record) records.push(record);
  }
  return records;
}

function articleToRecord(article: Record<string, unknown> | undefined): SearchRecord | null {
  const citation = asRecord(article?.MedlineCitation);
  const pmid = xmlText(citation?.PMID)?.trim();
  const details = asRecord(citation?.Article);
  if (!pmid || !details) return null;
  const journal = asRecord(details.Journal);
  const issueDate = asRecord(asRecord(journal?.JournalIssue)?.PubDate);
  const electronicDates = asArray(details.ArticleDate).map(asRecord);
  const articleIds = asArray(asRecord(asRecord(article?.PubmedData)?.ArticleIdList)?.ArticleId).map(
    asRecord,
  );
  const doi =
    normaliseDoi(xmlText(articleIds.find((id) => id?.IdType === 'doi'))) ??
    normaliseDoi(
      xmlText(
        asArray(details.ELocationID)
          .map(asRecord)
          .find((id) => id?.EIdType === 'doi'),
      ),
    );
  const title = rawMarkup(details.ArticleTitle) || rawMarkup(details.VernacularTitle);
  const issue = asRecord(journal?.JournalIssue);
  const pagination = asRecord(details.Pagination);
  const publicationTypes = asArray(asRecord(details.PublicationTypeList)?.PublicationType).map(
    (type) => xmlText(type)?.trim(),
  );
  const journalTitle = xmlText(journal?.Title);
  return buildRecord({
    pmid,
    title,
    abstractNode: details.Abstract,
    authorList: details.AuthorList,
    dates: [pubDate(issueDate), ...electronicDates.map(pubDate)],
    doi,
    venue: journalTitle,
    type: 'article',
    details: {
      type: publicationTypes.includes('Preprint') ? 'preprint' : 'article-journal',
      containerTitle: journalTitle ? collapseWhitespace(journalTitle) : undefined,
      volume: xmlText(issue?.Volume),
      issue: xmlText(issue?.Issue),
      // StartPage/EndPage are written out; older records have only MedlinePgn (`244-55`).
      pages:
        pagesFromEnds(xmlText(pagination?.StartPage), xmlText(pagination?.EndPage)) ??
        pagesText(xmlText(pagination?.MedlinePgn), { abbreviated: true }),
      issn: joinedIdentifiers([xmlText(journal?.ISSN)]),
      language: languageOf(details.Language),
      issued: dateFromIso(pubDate(issueDate)),
    },
  });
}

function bookToRecord(book: Record<string, unknown> | undefined): SearchRecord | null {
  const document = asRecord(book?.BookDocument);
  const pmid = xmlText(document?.PMID)?.trim();
  if (!pmid || !document) return null;
  const bookInfo = asRecord(document.Book);
  const chapterTitle = rawMarkup(document.ArticleTitle);
  const bookTitle = rawMarkup(bookInfo?.BookTitle);
  const publisher = xmlText(asRecord(bookInfo?.Publisher)?.PublisherName);
  return buildRecord({
    pmid,
    title: chapterTitle || bookTitle,
    abstractNode: document.Abstract,
    authorList: document.AuthorList,
    // The book's own author or editor list, after the document's, in the record's names.
    bookAuthorList: bookInfo?.AuthorList,
    dates: [pubDate(asRecord(bookInfo?.PubDate))],
    venue: publisher,
    type: 'book',
    details: {
      type: chapterTitle ? 'chapter' : 'book',
      containerTitle: chapterTitle && bookTitle ? inlineMarkupToText(bookTitle) : undefined,
      publisher: publisher ? collapseWhitespace(publisher) : undefined,
      isbn: joinedIdentifiers(asArray(bookInfo?.Isbn).map((isbn) => xmlText(isbn))),
      language: languageOf(document.Language),
    },
  });
}

interface RecordParts {
  pmid: string;
  title: string;
  abstractNode: unknown;
  authorList: unknown;
  bookAuthorList?: unknown;
  dates: Array<string | null>;
  doi?: string;
  venue?: string;
  type: string;
  /** The record's details but its names, which come from `authorList`. */
  details: Omit<BibliographicDetails, 'creators'> & { type: RecordType };
}

function buildRecord(parts: RecordParts): SearchRecord {
  const publishedDate = earliestDate(parts.dates);
  const { issued, ...rest } = parts.details;
  const details = compactDetails({
    creators: readCreators([...asArray(parts.authorList), ...asArray(parts.bookAuthorList)]),
    ...rest,
    // The issue's date, when it says more than the date of first publication (an article online before its issue).
    ...(issued && isoDateOf(issued) !== publishedDate ? { issued } : {}),
  });
  return {
    id: `pubmed:${parts.pmid}`,
    provider: 'pubmed',
    nativeId: parts.pmid,
    title: inlineMarkupToText(parts.title),
    authors: readAuthors(parts.authorList),
    abstract: readAbstract(parts.abstractNode),
    url: `https://pubmed.ncbi.nlm.nih.gov/${parts.pmid}/`,
    publishedDate,
    year: yearOf(publishedDate),
    citations: 0,
    citationsKnown: false,
    score: 0,
    sources: ['pubmed'],
    pmid: parts.pmid,
    ...(parts.doi ? { doi: parts.doi } : {}),
    ...(parts.venue ? { venue: collapseWhitespace(parts.venue) } : {}),
    type: parts.type,
    ...(details ? { details } : {}),
  };
}

/** Raw inner markup of a stop node (string, or `{ '#text' }` when the element has attributes). */
function rawMarkup(node: unknown): string {
  return xmlText(node) ?? '';
}

/** Structured abstracts keep their sections as `LABEL: text` lines, in document order. */
function readAbstract(abstractNode: unknown): string {
  const sections = asArray(asRecord(abstractNode)?.AbstractText);
  const lines: string[] = [];
  for (const section of sections) {
    const text = markupToText(rawMarkup(section)).replace(/\n/g, ' ');
    if (!text) continue;
    const label = asString(asRecord(section)?.Label)?.trim();
    lines.push(label ? `${label}: ${text}` : text);
  }
  return lines.join('\n');
}

function readAuthors(authorList: unknown): string[] {
  const list = asRecord(asArray(authorList)[0]);
  const names: string[] = [];
  for (const authorNode of asArray(list?.Author)) {
    const author = asRecord(authorNode);
    if (!author || author.ValidYN === 'N') continue;
    const collective = xmlText(author.CollectiveName);
    if (collective) {
      names.push(inlineMarkupToText(collective));
      continue;
    }
    const last = xmlText(author.LastName);
    const first = xmlText(author.ForeName) ?? xmlText(author.Initials);
    const name = collapseWhitespace([first, last].filter(Boolean).join(' '));
    if (name) names.push(name);
  }
  return names;
}

/**
 * Names as PubMed gives them: LastName, ForeName (else Initials), Suffix, or CollectiveName for a
 * group; every author list in order, an editors' list (`Type="editors"`, books) as editors.
 */
function readCreators(authorList: unknown): Creator[] {
  const creators: Creator[] = [];
  for (const listNode of asArray(authorList)) {
    const list = asRecord(listNode);
    const role: CreatorRole = list?.Type === 'editors' ? 'editor' : 'author';
    for (const authorNode of asArray(list?.Author)) {
      const author = asRecord(authorNode);
      if (!author || author.ValidYN === 'N') continue;
      const collective = xmlText(author.CollectiveName);
      const creator = creatorFromParts(role, {
        literal: collective ? inlineMarkupToText(collective) : undefined,
        family: xmlText(author.LastName),
        given: xmlText(author.ForeName) ?? xmlText(author.Initials),
        suffix: xmlText(author.Suffix),
      });
      if (creator) creators.push(creator);
    }
  }
  return creators;
}

/** The first of a record's `Language` codes (ISO 639-2, `eng`) as a language tag. */
function languageOf(languages: unknown): string | undefined {
  return asArray(languages)
    .map((code) => languageTag(xmlText(code)))
    .find(Boolean);
}

/** A PubDate/ArticleDate as ISO at its precision; `MedlineDate` ("1998 Dec-1999 Jan") gives its first year. */
function pubDate(date: Record<string, unknown> | undefined): string | null {
  if (!date) return null;
  const year = asNumber(xmlText(date.Year));
  if (year !== undefined) {
    return isoDateFromParts(year, parseMonth(xmlText(date.Month)), asNumber(xmlText(date.Day)));
  }
  const medline = /^(\d{4})(?:\s+([A-Za-z]{3}))?/.exec(xmlText(date.MedlineDate) ?? '');
  return medline ? isoDateFromParts(Number(medline[1]), parseMonth(medline[2])) : null;
}

/**
 * The journal issue date and the electronic publication date can differ (an article appears online
 * months before its issue); the earliest is when the work became public, which is what other indexes report.
 */
function earliestDate(dates: Array<string | null>): string | null {
  let best: string | null = null;
  for (const date of dates) {
    if (!date) continue;
    if (!best) {
      best = date;
      continue;
    }
    const common = Math.min(best.length, date.length);
    const a = date.slice(0, common);
    const b = best.slice(0, common);
    if (a < b || (a === b && date.length > best.length)) best = date;
  }
  return best;
}

/**
 * efetch does not promise esearch's (relevance) order, and it may answer a merged PMID under its new
 * number; records are put in esearch order, and any it did not list follow in document order.
 */
function inSearchOrder(records: SearchRecord[], ids: string[]): SearchRecord[] {
  const position = new Map(ids.map((id, index) => [id, index]));
  return records
    .map((record, index) => ({ record, key: position.get(record.nativeId) ?? ids.length + index }))
    .sort((a, b) => a.key - b.key)
    .map(({ record }) => record);
}

/**
 * The esearch `term` with the filters PubMed supports: publication years as `YYYY:YYYY[dp]`, free full
 * text as `free full text[sb]`, the venue as `"…"[journal]` (title, abbreviation or ISSN).
 */
function toPubmedTerm(query: string, filters: SearchFilters = {}): string {
  const clauses: string[] = [];
  if (filters.yearFrom !== undefined || filters.yearTo !== undefined)
    clauses.push(`${filters.yearFrom ?? 1000}:${filters.yearTo ?? 9999}[dp]`);
  if (filters.hasPdf) clauses.push('free full text[sb]');
  const venue = filters.venue?.replace(/["[\]]/g, ' ').trim();
  if (venue) clauses.push(`"${venue}"[journal]`);
  return clauses.length > 0 ? [`(${query})`, ...clauses].join(' AND ') : query;
}

/** PubMed's records are journal articles and books (the NCBI Bookshelf). */
const PUBMED_TYPES: ReadonlySet<string> = new Set(['article', 'book']);

/** E-utilities ask callers to name their tool and a contact; an API key raises the rate. */
function politeParams(api: ProviderApi) {
  return { tool: TOOL_NAME, email: api.contactEmail, api_key: api.apiKey };
}

async function fetchArticles(
  api: ProviderApi,
  ids: string[],
  signal?: AbortSignal,
  deadlineAt?: number,
): Promise<SearchRecord[]> {
  const url = api.url('/efetch.fcgi', {
    db: 'pubmed',
    id: ids.join(','),
    retmode: 'xml',
    rettype: 'abstract',
    ...politeParams(api),
  });
  const response = await api.upstream.get(url, { signal, deadlineAt });
  if (response.status !== 200) failForStatus('pubmed', response);
  try {
    return parseEfetch(response.text());
  } catch (error) {
    if (error instanceof EutilsError)
      throw new ProviderError('pubmed', 'upstream', error.message, response.status);
    throw new ProviderError(
      'pubmed',
      'bad_response',
      'efetch body is not a PubmedArticleSet',
      response.status,
    );
  }
}

export const createPubmedProvider = defineProvider({
  id: 'pubmed',
  name: 'PubMed',
  description:
    'Biomedical and life-science literature indexed by the US National Library of Medicine.',
  rate: { requestsPerSecond: PUBMED_REQUESTS_PER_SECOND, maxConcurrency: 3 },
  requestsPerSearch: 2,

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    if (filters?.type && !PUBMED_TYPES.has(filters.type)) return { records: [], total: 0 };
    const url = api.url('/esearch.fcgi', {
      db: 'pubmed',
      term: toPubmedTerm(query, filters),
      retmax: Math.min(Math.max(1, limit), MAX_RESULTS),
      retstart: 0,
      sort: 'relevance',
      retmode: 'xml',
      ...politeParams(api),
    });
    const response = await api.upstream.get(url, { signal, deadlineAt, leadsToFollowUp: true });
    if (response.status !== 200) failForStatus('pubmed', response);
    let idList: PubmedIdList;
    try {
      idList = parseEsearch(response.text());
    } catch (error) {
      if (error instanceof EutilsError)
        throw new ProviderError('pubmed', 'upstream', error.message, response.status);
      throw new ProviderError(
        'pubmed',
        'bad_response',
        'esearch body is not an eSearchResult',
        response.status,
      );
    }
    if (idList.ids.length === 0) return { records: [], total: idList.total };
    const fetched = await fetchArticles(api, idList.ids, signal, deadlineAt);
    return { records: inSearchOrder(fetched, idList.ids), total: idList.total };
  },

  async lookup(api, nativeId, { signal, deadlineAt }) {
    const pmid = nativeId.trim();
    if (!/^\d{1,9}$/.test(pmid)) return null;
    const records = await fetchArticles(api, [pmid], signal, deadlineAt);
    return records.find((record) => record.nativeId === pmid) ?? null;
  },
});
