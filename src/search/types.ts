/**
 * Shared shapes of the search capability: provider ids, the normalised record every provider returns,
 * and the small interface every provider implements.
 */
import type { Outbound } from '../platform/outbound.js';
import type { Creator, RecordDate, RecordType } from '../records/index.js';
import type { SearchFilters } from './filters.js';
import type { ProviderLimiter } from './provider-limiter.js';

export const PROVIDER_IDS = [
  'arxiv',
  'pubmed',
  'crossref',
  'openalex',
  'semanticscholar',
  'zenodo',
  'youtube',
] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];

/**
 * One search result, normalised. The first block is the common result fields; the rest is what this
 * service adds (`sources`, `doi`, `arxivId`, `pmid`, `pdfUrl`; docs/design.md, Search providers) plus
 * what merging, ranking and sorting need. A presenter picks the public fields; internal ones
 * (`nativeId`, `ranks`, `citationsKnown`, ...) stay here.
 */
export interface SearchRecord {
  /** `<provider>:<native id>`, e.g. `arxiv:2101.00001v2`, `crossref:10.1038/nature14539`. */
  id: string;
  title: string;
  /** Plain names, "Given Family" where the API gives the parts. */
  authors: string[];
  /** Plain text, markup removed; sections of a structured abstract are kept as `LABEL: text` lines. */
  abstract: string;
  url: string;
  provider: ProviderId;
  /**
   * ISO 8601 calendar date at the precision the provider knows: `YYYY-MM-DD`, or `YYYY-MM` when only the
   * month is known, or `YYYY` when only the year is; null when the provider gives no date at all.
   */
  publishedDate: string | null;
  /** 0 when unknown; see `citationsKnown`. */
  citations: number;
  /** Relevance in 0..1, set by `scoreRecords`; 0 until then. */
  score: number;

  /** Every provider that returned this work (one entry before merging). */
  sources: ProviderId[];
  /** The id without the provider prefix (arXiv ids keep their version, as the API gives them). */
  nativeId: string;
  /** Lower-cased bare DOI (no `https://doi.org/`). */
  doi?: string;
  /** arXiv id without version (`2101.00001`, `cond-mat/0603029`). */
  arxivId?: string;
  pmid?: string;
  openalexId?: string;
  pdfUrl?: string;
  year: number | null;
  /** False when the provider publishes no citation count (arXiv, PubMed, Zenodo, YouTube). */
  citationsKnown: boolean;
  venue?: string;
  /** What kind of thing this is, as far as the provider says (`article`, `preprint`, `dataset`, `video`, ...). */
  type?: string;
  /** 1-based position in each provider's own answer; set by federation, used for rank fusion. */
  ranks?: Partial<Record<ProviderId, number>>;
  /**
   * The bibliographic record as the provider gave it, for a resource made from this result (the
   * public search reply does not carry it: its presenter picks the fields above).
   */
  details?: BibliographicDetails;
}

/**
 * What a provider says about the work beyond the common result fields, under the names of a record
 * (src/records: CSL 1.0.2's variables), so that a resource made from a result keeps it. Each field
 * is present only when the provider gave it; every text is plain text.
 */
/** The text fields of a provider's bibliographic details (merge.ts, plain-text.ts and saving them read the same list). */
export const DETAIL_TEXT_FIELDS = [
  'containerTitle',
  'volume',
  'issue',
  'pages',
  'publisher',
  'issn',
  'isbn',
  'language',
] as const;

export interface BibliographicDetails {
  /**
   * Structured names with their role (authors, and editors where the API lists them), as the API
   * gives them when it gives parts (Crossref, PubMed), else read from its strings.
   */
  creators?: Creator[];
  /** The CSL type, mapped from the provider's own (which stays in `SearchRecord.type`). */
  type?: RecordType;
  /** The journal, proceedings or book the work appeared in; never the repository of a preprint. */
  containerTitle?: string;
  volume?: string;
  issue?: string;
  /** A page, a range with a hyphen (`123-130`, abbreviated ranges written out), or an article number. */
  pages?: string;
  /** The publisher; for a preprint or a deposit, its repository (`arXiv`, `Zenodo`). */
  publisher?: string;
  /** One ISSN, or several separated by `, ` (print and electronic), as Zotero writes them. */
  issn?: string;
  /** One ISBN, or several separated by `, `. */
  isbn?: string;
  /** A language tag (`en`, `de`): ISO 639-1 where the provider gives a code that has one. */
  language?: string;
  /** The issue date when the provider gives one other than `publishedDate` (PubMed's print issue). */
  issued?: RecordDate;
}

export interface ProviderSearchOptions {
  /** How many records to ask for; each provider clamps it to what its API allows. */
  limit: number;
  signal?: AbortSignal;
  /** Epoch ms after which the provider must give up (request deadlines and retries respect it). */
  deadlineAt?: number;
  /**
   * The search's filters: a provider sends those its API supports natively; the merged list is filtered
   * again afterwards (filters.ts), so a provider may ignore any of them.
   */
  filters?: SearchFilters;
}

export interface ProviderLookupOptions {
  signal?: AbortSignal;
  deadlineAt?: number;
}

/** A work's neighbours in the citation graph: what it cites, what cites it, what resembles it. */
export type WorkRelation = 'references' | 'citations' | 'similar';

export interface ProviderRelatedOptions {
  /** How many neighbours to ask for at most; each provider clamps it to what its API allows. */
  limit: number;
  signal?: AbortSignal;
  deadlineAt?: number;
}

export interface ProviderSearchAnswer {
  records: SearchRecord[];
  /** The provider's own count of matches, when it says (not the number returned). */
  total?: number;
}

export interface SearchProvider {
  id: ProviderId;
  name: string;
  description: string;
  /** The request rate the upstream API publishes (requests per second); the limiter keeps under it. */
  requestsPerSecond: number;
  /** Requests in flight at once to this upstream. */
  maxConcurrency: number;
  /**
   * Requests one search makes one after the other (PubMed and YouTube: 2, ids then details); 1 when
   * absent. Federation starts the longest chains first.
   */
  requestsPerSearch?: number;
  isEnabled(): boolean;
  search(query: string, options: ProviderSearchOptions): Promise<ProviderSearchAnswer>;
  /** One record by the provider's native id; null when the provider does not know it. */
  lookup(nativeId: string, options?: ProviderLookupOptions): Promise<SearchRecord | null>;
  /**
   * A work's references, citations or similar works, by the provider's native id of the work (OpenAlex:
   * a W-id, `doi:…` or `pmid:…`; Semantic Scholar: a paper id, `DOI:…`, `ARXIV:…` or `PMID:…`); `total`
   * is the provider's own count. Only providers with a citation graph have it. A work the provider does
   * not know is an empty answer.
   */
  related?(
    relation: WorkRelation,
    nativeId: string,
    options: ProviderRelatedOptions,
  ): Promise<ProviderSearchAnswer>;
}

/** What every provider factory takes. */
export interface ProviderFactoryOptions {
  /** The API's base address (docs/design.md, Search providers), without a trailing slash; the provider appends its paths. */
  baseUrl: string;
  outbound: Outbound;
  apiKey?: string;
  /** Sent as `mailto`/User-Agent contact so that APIs with a polite pool can reach the operator. */
  contactEmail?: string;
  /** Per-request deadline when the caller gives none. */
  timeoutMs: number;
  /** Shared rate/concurrency limiter; by default one built from the provider's published rate. */
  limiter?: ProviderLimiter;
  /** Told of every search, lookup and related-works call and of every rate-limit hit (the metrics; search/metrics.ts). */
  observer?: ProviderObserver;
}

/** How a provider call ended: `ok`, or the ProviderError's kind (`error` for anything else). */
export type ProviderOperation = 'search' | 'lookup' | 'related';

export type ProviderCallOutcome =
  'ok' | 'timeout' | 'rate_limited' | 'upstream' | 'bad_response' | 'network' | 'aborted' | 'error';

export interface ProviderObserver {
  call(
    provider: ProviderId,
    operation: ProviderOperation,
    outcome: ProviderCallOutcome,
    seconds: number,
  ): void;
  /** `upstream`: the API answered 429; `local`: this process's limiter had no request slot before the deadline. */
  rateLimited(provider: ProviderId, by: 'upstream' | 'local'): void;
}

/** Provider-answer cache the platform plugs in (memory or Redis). Values are opaque strings. */
export interface ProviderAnswerCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}
