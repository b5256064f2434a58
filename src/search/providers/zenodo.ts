/**
 * Zenodo (research data repository): `/records?q=` and `/records/{id}`. Two record formats are read:
 * the pre-2023 one (`files[]` with `type` and `links.self` under `/api/files/<bucket>/`) and the current
 * one (files with `mimetype` and `links.content`, sometimes as `files.entries`). The old API answers
 * `/records?q=` with a 308 to `/records/?q=`, which the outbound client follows.
 */
import type { ResultType, SearchFilters } from '../filters.js';
import { ProviderError } from '../provider-error.js';
import {
  givenFirst,
  inlineMarkupToText,
  isoDateFromString,
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
  creatorsFromNames,
  joinedIdentifiers,
  languageTag,
  pagesText,
} from './details.js';
import { failForStatus, readJson } from './upstream.js';
import { asArray, asHttpUrl, asNumber, asRecord, asString } from './values.js';

/** Zenodo's search endpoint allows 30 requests per minute (the rest of the REST API, 60 for guests). */
const ZENODO_REQUESTS_PER_SECOND = 0.5;
/** Anonymous searches may not ask for more than 25 records per page. */
const MAX_PAGE_SIZE = 25;

interface ZenodoFile {
  key?: string;
  mimetype?: string;
  type?: string;
  link?: string;
}

function readFiles(files: unknown): ZenodoFile[] {
  const container = asRecord(files);
  const entries = container
    ? Array.isArray(container.entries)
      ? container.entries
      : Object.values(asRecord(container.entries) ?? {})
    : asArray(files);
  return entries.map((entry) => {
    const file = asRecord(entry) ?? {};
    const links = asRecord(file.links);
    return {
      key: asString(file.key) ?? asString(file.filename),
      mimetype: asString(file.mimetype),
      type: asString(file.type),
      link: asHttpUrl(links?.content) ?? asHttpUrl(links?.self) ?? asHttpUrl(links?.download),
    };
  });
}

/** The record's PDF, chosen by mimetype, then by file type or name. */
function pdfOf(files: ZenodoFile[]): string | undefined {
  const pdf =
    files.find((file) => file.mimetype === 'application/pdf') ??
    files.find((file) => file.type?.toLowerCase() === 'pdf' || /\.pdf$/i.test(file.key ?? ''));
  return pdf?.link;
}

/**
 * Free text for Zenodo's query-string syntax: reserved characters are escaped so that a stray `:` or an
 * unbalanced quote cannot turn into a syntax error (one query goes to every provider alike).
 */
export function toZenodoQuery(query: string): string {
  return query.replace(/[+\-=&|><!(){}[\]^"~*?:\\/]/g, (character) => `\\${character}`);
}

/** Zenodo's resource `type` (and `subtype` for publications) for each filter type. */
const ZENODO_TYPES: Partial<Record<ResultType, { type: string; subtype?: string }>> = {
  article: { type: 'publication', subtype: 'article' },
  preprint: { type: 'publication', subtype: 'preprint' },
  book: { type: 'publication', subtype: 'book' },
  chapter: { type: 'publication', subtype: 'section' },
  conference: { type: 'publication', subtype: 'conferencepaper' },
  dataset: { type: 'dataset' },
  software: { type: 'software' },
  video: { type: 'video' },
};

/** `q` with a `publication_date:[… TO …]` range (`*` for an open end), and the `type`/`subtype` parameters. */
function zenodoSearchParams(
  query: string,
  filters: SearchFilters = {},
): { q: string; type?: string; subtype?: string } {
  const escaped = toZenodoQuery(query);
  const ranged =
    filters.yearFrom !== undefined || filters.yearTo !== undefined
      ? `(${escaped}) AND ` +
        `publication_date:[${filters.yearFrom !== undefined ? `${filters.yearFrom}-01-01` : '*'} ` +
        `TO ${filters.yearTo !== undefined ? `${filters.yearTo}-12-31` : '*'}]`
      : escaped;
  return { q: ranged, ...((filters.type && ZENODO_TYPES[filters.type]) || {}) };
}

/**
 * Zenodo's resource types (`type`, or `type-subtype` for publications and images) as CSL types,
 * after Zotero's Zenodo translator: presentations and posters are talks (`speech`), drawings and
 * photos `graphic`, videos `motion_picture`. Types not listed are CSL's generic `document`.
 */
const CSL_TYPES: Readonly<Record<string, RecordType>> = {
  'publication-article': 'article-journal',
  'publication-preprint': 'preprint',
  'publication-book': 'book',
  'publication-section': 'chapter',
  'publication-conferencepaper': 'paper-conference',
  'publication-thesis': 'thesis',
  'publication-report': 'report',
  'publication-technicalnote': 'report',
  'publication-workingpaper': 'report',
  'publication-deliverable': 'report',
  'publication-proposal': 'report',
  'publication-datamanagementplan': 'report',
  'publication-softwaredocumentation': 'report',
  'publication-patent': 'patent',
  'publication-standard': 'standard',
  'publication-peerreview': 'review',
  dataset: 'dataset',
  software: 'software',
  poster: 'speech',
  presentation: 'speech',
  video: 'motion_picture',
  'image-figure': 'figure',
  'image-plot': 'figure',
  'image-diagram': 'figure',
  'image-drawing': 'graphic',
  'image-photo': 'graphic',
  image: 'graphic',
};

/** A Zenodo resource type as a CSL type. */
function cslTypeOf(resourceType: Record<string, unknown> | undefined): RecordType | undefined {
  const type = asString(resourceType?.type);
  if (!type) return undefined;
  const subtype = asString(resourceType?.subtype);
  const key = subtype ? `${type}-${subtype}` : type;
  if (Object.hasOwn(CSL_TYPES, key)) return CSL_TYPES[key];
  return Object.hasOwn(CSL_TYPES, type) ? CSL_TYPES[type] : 'document';
}

/**
 * A creator of a Zenodo record. Zenodo asks for people as "Family, Given"; a name without a comma
 * is an organisation's ("USGS EROS") or one a depositor would not split, kept whole. The current
 * format's `person_or_org` gives the parts apart.
 */
function zenodoCreator(node: unknown, role: CreatorRole): Creator | null {
  const creator = asRecord(node);
  const person = asRecord(creator?.person_or_org);
  if (person) {
    const name = asString(person.name);
    return asString(person.type) === 'organizational'
      ? creatorFromParts(role, { literal: name })
      : creatorFromParts(role, {
          family: asString(person.family_name),
          given: asString(person.given_name),
          literal: asString(person.family_name) ? undefined : name,
        });
  }
  const name = asString(creator?.name)?.trim();
  if (!name) return null;
  return name.includes(',')
    ? (creatorsFromNames([name], role)[0] ?? null)
    : { role, literal: name };
}

/**
 * The record's details: creators (and contributors of type Editor), CSL type, the journal or book
 * it appeared in, and the publisher, which for a deposit with a Zenodo DOI (or none) is Zenodo
 * unless the record names another (a dataset Zenodo holds for Dryad is Dryad's).
 */
function zenodoDetails(
  metadata: Record<string, unknown>,
  doi: string | undefined,
): BibliographicDetails | undefined {
  const creators = asArray(metadata.creators)
    .map((creator) => zenodoCreator(creator, 'author'))
    .filter((creator): creator is Creator => !!creator);
  for (const contributor of asArray(metadata.contributors)) {
    const role = asString(asRecord(contributor)?.type)?.toLowerCase();
    const editor = role === 'editor' ? zenodoCreator(contributor, 'editor') : null;
    if (editor) creators.push(editor);
  }
  const journal = asRecord(metadata.journal);
  const imprint = asRecord(metadata.imprint);
  const partOf = asRecord(metadata.part_of);
  const deposit = !doi || /^10\.5281\/zenodo\./i.test(doi);
  return compactDetails({
    creators,
    type: cslTypeOf(asRecord(metadata.resource_type)),
    containerTitle: asString(journal?.title) ?? asString(partOf?.title),
    volume: asString(journal?.volume),
    issue: asString(journal?.issue),
    pages: pagesText(asString(journal?.pages) ?? asString(partOf?.pages)),
    // A thesis is published by its university; anything else deposited here, by Zenodo.
    publisher:
      asString(metadata.publisher) ??
      asString(imprint?.publisher) ??
      asString(asRecord(metadata.thesis)?.university) ??
      (deposit ? 'Zenodo' : undefined),
    isbn: joinedIdentifiers([asString(imprint?.isbn)]),
    language: languageTag(asString(metadata.language)),
  });
}

export function zenodoRecordToRecord(hit: Record<string, unknown>): SearchRecord | null {
  const recordId = asString(hit.id) ?? asString(hit.recid);
  if (!recordId || !/^\d+$/.test(recordId)) return null;
  const metadata = asRecord(hit.metadata) ?? {};
  const links = asRecord(hit.links);
  const doi = normaliseDoi(asString(hit.doi) ?? asString(metadata.doi));
  const publishedDate = isoDateFromString(asString(metadata.publication_date));
  const pdfUrl = pdfOf(readFiles(hit.files));
  const resourceType = asRecord(metadata.resource_type);
  const details = zenodoDetails(metadata, doi);
  return {
    id: `zenodo:${recordId}`,
    provider: 'zenodo',
    nativeId: recordId,
    title: inlineMarkupToText(asString(metadata.title) ?? asString(hit.title) ?? ''),
    authors: asArray(metadata.creators)
      .map((creator) => asString(asRecord(creator)?.name))
      .filter((name): name is string => !!name)
      .map(givenFirst),
    abstract: markupToText(asString(metadata.description) ?? ''),
    url:
      asHttpUrl(links?.self_html) ??
      asHttpUrl(links?.html) ??
      `https://zenodo.org/records/${recordId}`,
    publishedDate,
    year: yearOf(publishedDate),
    citations: 0,
    citationsKnown: false,
    score: 0,
    sources: ['zenodo'],
    ...(doi ? { doi } : {}),
    ...(pdfUrl ? { pdfUrl } : {}),
    type: asString(resourceType?.subtype) ?? asString(resourceType?.type) ?? 'record',
    ...(details ? { details } : {}),
  };
}

export const createZenodoProvider = defineProvider({
  id: 'zenodo',
  name: 'Zenodo',
  description:
    'Open research repository (CERN/OpenAIRE) for datasets, software, papers and reports.',
  rate: { requestsPerSecond: ZENODO_REQUESTS_PER_SECOND, maxConcurrency: 2 },
  accept: 'application/json',
  headers: ({ apiKey }): Record<string, string> =>
    apiKey ? { authorization: `Bearer ${apiKey}` } : {},

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    const url = api.url('/records', {
      ...zenodoSearchParams(query, filters),
      size: Math.min(Math.max(1, limit), MAX_PAGE_SIZE),
      page: 1,
      sort: 'bestmatch',
    });
    const response = await api.upstream.get(url, { signal, deadlineAt });
    if (response.status !== 200) failForStatus('zenodo', response);
    const hits = asRecord(asRecord(readJson<unknown>('zenodo', response))?.hits);
    if (!hits || !Array.isArray(hits.hits)) {
      throw new ProviderError('zenodo', 'bad_response', 'No hits in the reply', response.status);
    }
    const records = hits.hits
      .map((hit) => asRecord(hit))
      .filter((hit): hit is Record<string, unknown> => !!hit)
      .map(zenodoRecordToRecord)
      .filter((record): record is SearchRecord => !!record);
    const total = asNumber(hits.total) ?? asNumber(asRecord(hits.total)?.value);
    return { records, total };
  },

  async lookup(api, nativeId, options) {
    const recordId = nativeId.trim();
    if (!/^\d+$/.test(recordId)) return null;
    const response = await api.upstream.get(api.url(`/records/${recordId}`), options);
    // 404 "PID does not exist"; 410 for a deleted record.
    if (response.status === 404 || response.status === 410) return null;
    if (response.status !== 200) failForStatus('zenodo', response);
    const hit = asRecord(readJson<unknown>('zenodo', response));
    return hit ? zenodoRecordToRecord(hit) : null;
  },
});
