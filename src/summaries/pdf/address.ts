/**
 * Where a record's PDF is, per provider:
 * - arXiv: built from the record id (any version, new- or old-style ids, abs/pdf URLs, arXiv DOIs);
 * - OpenAlex: looked up through its works API: the best open-access location first, then the primary
 *   location, then the others (a location's `pdf_url`, then the work's `oa_url`, then landing pages),
 *   each confirmed with a HEAD request unless it ends in `.pdf` or is an arXiv address;
 * - Zenodo: the record's files, chosen by mimetype or file name (both the legacy and the current API
 *   formats);
 * - a PDF address the record names (a search result's `pdfUrl`) and, for a DOI, the open-access
 *   locations OpenAlex knows for it;
 * - anything else: the record's URL when it ends in `.pdf` or a HEAD request answers `application/pdf`.
 * Every request goes through the outbound client (deadline, size cap, address guard).
 */
import { OutboundError, type Outbound } from '../../platform/outbound.js';
import { PdfFetchError } from './errors.js';

export interface PdfSourceUrls {
  /** Base of arXiv PDF addresses, e.g. `https://arxiv.org/pdf`. */
  arxivPdfBase: string;
  /** OpenAlex API base, e.g. `https://api.openalex.org`. */
  openalex: string;
  /** Zenodo API base, e.g. `https://zenodo.org/api`. */
  zenodo: string;
}

export interface PdfRecordRef {
  /** Provider-prefixed (`arxiv:2101.00001v2`) or native id. */
  id?: string;
  /** Provider id (`arxiv`, `openalex`, `zenodo`, `pubmed`, …); taken from the id prefix when absent. */
  source?: string;
  /** The record's page (a landing page, or the PDF itself). */
  url?: string;
  /** A PDF address the record names (a search result's `pdfUrl`, an open-access link). */
  pdfUrl?: string;
  arxivId?: string;
  doi?: string;
}

export interface ResolvePdfOptions {
  outbound: Outbound;
  urls: PdfSourceUrls;
  signal?: AbortSignal;
  /** Deadline of each metadata or HEAD request (default 10 s). */
  timeoutMs?: number;
}

const METADATA_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
/** At most this many candidate addresses are confirmed with HEAD for one record. */
const MAX_HEAD_CHECKS = 4;

const NEW_STYLE_ARXIV_ID = /^(\d{4}\.\d{4,5})(v\d+)?$/;
const OLD_STYLE_ARXIV_ID = /^([a-z][a-z-]*(?:\.[A-Z]{2})?\/\d{7})(v\d+)?$/i;

/**
 * The arXiv id (with its version, if any) in an id, URL or DOI: "2101.00001v2", "arXiv:2101.00001",
 * "cond-mat/0603029v1", "https://arxiv.org/abs/2101.00001", "http://arxiv.org/pdf/hep-th/9901001v1.pdf",
 * "10.48550/arXiv.2101.00001". Undefined when there is none.
 */
export function parseArxivId(input: string): string | undefined {
  let value = input.trim();
  const doi = /^(?:https?:\/\/(?:dx\.)?doi\.org\/)?10\.48550\/arxiv\.(.+)$/i.exec(value);
  if (doi) value = doi[1] as string;
  const url =
    /^(?:https?:\/\/)?(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf|html)\/(.+?)(?:\.pdf)?\/?(?:[?#].*)?$/i.exec(
      value,
    );
  if (url) value = url[1] as string;
  value = value.replace(/^arxiv:/i, '');
  const modern = NEW_STYLE_ARXIV_ID.exec(value);
  if (modern) return `${modern[1]}${modern[2] ?? ''}`;
  const legacy = OLD_STYLE_ARXIV_ID.exec(value);
  if (legacy) return `${legacy[1]}${legacy[2] ?? ''}`;
  return undefined;
}

/** `https://arxiv.org/pdf/<id>` (or under another base). */
function arxivPdfUrl(arxivId: string, base: string): string {
  return `${base.replace(/\/+$/, '')}/${arxivId}`;
}

/** Provider ids of the service (docs/design.md, Search providers); an id prefix naming one of them is split off. */
const PROVIDER_IDS = new Set([
  'arxiv',
  'pubmed',
  'crossref',
  'openalex',
  'semanticscholar',
  'zenodo',
  'youtube',
]);

function splitRecordId(record: PdfRecordRef): { source?: string; nativeId?: string } {
  const id = record.id?.trim() || undefined;
  const source = record.source?.trim().toLowerCase() || undefined;
  if (!id) return { source };
  const prefixed = /^([a-z]+):(.+)$/i.exec(id);
  const prefix = prefixed?.[1]?.toLowerCase();
  if (prefixed && prefix && PROVIDER_IDS.has(prefix))
    return { source: source ?? prefix, nativeId: prefixed[2] };
  return { source, nativeId: id };
}

function endsWithPdf(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.pdf');
  } catch {
    return false;
  }
}

function toFetchError(error: unknown): PdfFetchError {
  if (error instanceof PdfFetchError) return error;
  if (error instanceof OutboundError) {
    switch (error.kind) {
      case 'timeout':
        return new PdfFetchError('timeout', 'The PDF source did not answer in time');
      case 'too_large':
        return new PdfFetchError('too_large', 'The PDF source answered with too much data');
      case 'blocked_address':
        return new PdfFetchError(
          'blocked_address',
          'The PDF address points to a private or internal network',
        );
      case 'bad_url':
        return new PdfFetchError('bad_url', 'The PDF address is not a valid http(s) URL');
      case 'aborted':
        return new PdfFetchError('aborted', 'The request was cancelled');
      default:
        return new PdfFetchError(
          'network',
          `The PDF source could not be reached: ${error.message}`,
        );
    }
  }
  return new PdfFetchError(
    'network',
    error instanceof Error ? error.message : 'The PDF source could not be reached',
  );
}

async function fetchJson<T>(url: string, options: ResolvePdfOptions, what: string): Promise<T> {
  let response;
  try {
    response = await options.outbound.request(url, {
      headers: { accept: 'application/json' },
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: METADATA_MAX_BYTES,
      signal: options.signal,
    });
  } catch (error) {
    throw toFetchError(error);
  }
  if (response.status === 404 || response.status === 410) {
    throw new PdfFetchError('no_pdf', `${what} was not found`);
  }
  if (response.status >= 400) {
    throw new PdfFetchError(
      'http_error',
      `${what} could not be loaded (HTTP ${response.status})`,
      response.status,
    );
  }
  try {
    return response.json<T>();
  } catch {
    throw new PdfFetchError('http_error', `${what} answered with invalid JSON`, response.status);
  }
}

/** Whether a HEAD request says the address serves a PDF; the final address (after redirects) if so. */
async function confirmPdfWithHead(
  url: string,
  options: ResolvePdfOptions,
): Promise<string | undefined> {
  const response = await options.outbound.request(url, {
    method: 'HEAD',
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // A HEAD answer has no body; its Content-Length announces the PDF's size, which must not count.
    maxBytes: Number.MAX_SAFE_INTEGER,
    signal: options.signal,
  });
  if (response.status >= 400) return undefined;
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/pdf' || type === 'application/x-pdf' ? response.url : undefined;
}

/**
 * The first of the candidate addresses that is a PDF: arXiv addresses are rewritten to their PDF
 * address, `.pdf` addresses are taken as they are, others are confirmed with HEAD. Failures of a
 * candidate only move on to the next; undefined when none is a PDF.
 */
async function firstPdf(
  candidates: string[],
  options: ResolvePdfOptions,
): Promise<string | undefined> {
  let headChecks = 0;
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    const arxivId = parseArxivId(candidate);
    if (arxivId) return arxivPdfUrl(arxivId, options.urls.arxivPdfBase);
    if (endsWithPdf(candidate)) return candidate;
    if (headChecks >= MAX_HEAD_CHECKS) continue;
    headChecks++;
    try {
      const confirmed = await confirmPdfWithHead(candidate, options);
      if (confirmed) return confirmed;
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'aborted') throw toFetchError(error);
    }
  }
  return undefined;
}

interface OpenAlexLocation {
  pdf_url?: string | null;
  landing_page_url?: string | null;
}

interface OpenAlexWork {
  best_oa_location?: OpenAlexLocation | null;
  primary_location?: OpenAlexLocation | null;
  locations?: OpenAlexLocation[] | null;
  open_access?: { oa_url?: string | null } | null;
}

/** Candidate PDF addresses of an OpenAlex work, best first. */
export function openAlexPdfCandidates(work: OpenAlexWork): string[] {
  const locations = [
    work.best_oa_location,
    work.primary_location,
    ...(work.locations ?? []),
  ].filter((location): location is OpenAlexLocation => Boolean(location));
  const urls: Array<string | null | undefined> = [
    ...locations.map((location) => location.pdf_url),
    work.open_access?.oa_url,
    ...locations.map((location) => location.landing_page_url),
  ];
  return urls.filter((url): url is string => typeof url === 'string' && /^https?:\/\//i.test(url));
}

function openAlexWorkId(nativeId: string): string {
  const match = /(?:openalex\.org\/)?(W\d+)$/i.exec(nativeId.trim());
  return match ? (match[1] as string).toUpperCase() : nativeId.trim();
}

/** The first PDF among an OpenAlex work's locations; `path` names the work (`W123`, `doi:10.x/y`). */
async function openAlexWorkPdf(
  path: string,
  options: ResolvePdfOptions,
  what: string,
): Promise<string> {
  const base = options.urls.openalex.replace(/\/+$/, '');
  const work = await fetchJson<OpenAlexWork>(`${base}/works/${path}`, options, `The ${what}`);
  const found = await firstPdf(openAlexPdfCandidates(work), options);
  if (!found) throw new PdfFetchError('no_pdf', `No open-access PDF is known for this ${what}`);
  return found;
}

function resolveOpenAlex(nativeId: string, options: ResolvePdfOptions): Promise<string> {
  return openAlexWorkPdf(encodeURIComponent(openAlexWorkId(nativeId)), options, 'OpenAlex work');
}

interface ZenodoFile {
  key?: string;
  filename?: string;
  type?: string;
  mimetype?: string;
  links?: { self?: string; content?: string; download?: string };
}

interface ZenodoRecord {
  files?: ZenodoFile[] | { entries?: Record<string, ZenodoFile> | ZenodoFile[] } | null;
}

function zenodoFiles(record: ZenodoRecord): ZenodoFile[] {
  const files = record.files;
  if (!files) return [];
  if (Array.isArray(files)) return files;
  const entries = files.entries;
  if (!entries) return [];
  return Array.isArray(entries) ? entries : Object.values(entries);
}

/** The download address of a Zenodo record's PDF file (by mimetype, type or name), if it has one. */
export function zenodoPdfUrl(record: ZenodoRecord): string | undefined {
  const isPdf = (file: ZenodoFile): boolean => {
    const name = (file.key ?? file.filename ?? '').toLowerCase();
    return (
      file.mimetype?.toLowerCase() === 'application/pdf' ||
      file.type?.toLowerCase() === 'pdf' ||
      name.endsWith('.pdf')
    );
  };
  const file = zenodoFiles(record).find(isPdf);
  // Current API: `links.content` downloads, `links.self` describes; legacy API: `links.self` downloads.
  return file?.links?.content ?? file?.links?.download ?? file?.links?.self;
}

function zenodoRecordId(nativeId: string): string {
  const match = /(?:zenodo\.)?(\d+)\/?$/.exec(nativeId.trim());
  return match ? (match[1] as string) : nativeId.trim();
}

async function resolveZenodo(nativeId: string, options: ResolvePdfOptions): Promise<string> {
  const base = options.urls.zenodo.replace(/\/+$/, '');
  const record = await fetchJson<ZenodoRecord>(
    `${base}/records/${encodeURIComponent(zenodoRecordId(nativeId))}`,
    options,
    'The Zenodo record',
  );
  const url = zenodoPdfUrl(record);
  if (!url) throw new PdfFetchError('no_pdf', 'The Zenodo record has no PDF file');
  return url;
}

function resolveOpenAlexDoi(doi: string, options: ResolvePdfOptions): Promise<string> {
  const bare = doi.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i, '');
  // OpenAlex names a work by `doi:10.x/y`, the DOI's own slashes kept.
  return openAlexWorkPdf(
    `doi:${encodeURIComponent(bare).replaceAll('%2F', '/')}`,
    options,
    'work with this DOI',
  );
}

/** An address that is a PDF by its name, or by what a HEAD request answers; undefined when it is not one. */
async function pdfAt(address: string, options: ResolvePdfOptions): Promise<string | undefined> {
  if (endsWithPdf(address)) return address;
  try {
    return await confirmPdfWithHead(address, options);
  } catch (error) {
    throw toFetchError(error);
  }
}

/**
 * The address of a record's PDF, from everything the record knows, best first:
 * 1. an arXiv id (its own field, its id, an arXiv DOI or an arXiv address among its links): no request;
 * 2. the PDF address the record names (`pdfUrl`), confirmed unless it ends in `.pdf`;
 * 3. the provider's own record (OpenAlex locations, Zenodo files);
 * 4. its DOI's open-access locations, looked up in OpenAlex;
 * 5. its address, when that is a PDF.
 * A step that fails moves on to the next; when none finds one, the first failure is thrown
 * (`PdfFetchError`, `no_pdf` when nothing was there to try). A cancelled request stops at once.
 */
export async function resolvePdfUrl(
  record: PdfRecordRef,
  options: ResolvePdfOptions,
): Promise<string> {
  const { source, nativeId } = splitRecordId(record);
  const url = record.url?.trim() || undefined;
  const pdfUrl = record.pdfUrl?.trim() || undefined;
  const doi = record.doi?.trim() || undefined;

  const idNamesArxiv =
    source === 'arxiv' ||
    (!source && nativeId !== undefined && parseArxivId(nativeId) !== undefined);
  const arxivId = [record.arxivId, idNamesArxiv ? nativeId : undefined, doi, pdfUrl, url]
    .map((value) => (value ? parseArxivId(value) : undefined))
    .find((id) => id !== undefined);
  if (arxivId) return arxivPdfUrl(arxivId, options.urls.arxivPdfBase);
  if (source === 'arxiv') throw new PdfFetchError('no_pdf', 'The arXiv id is not valid');

  const steps: Array<() => Promise<string | undefined>> = [];
  if (pdfUrl) steps.push(() => pdfAt(pdfUrl, options));
  if (source === 'openalex' && nativeId) steps.push(() => resolveOpenAlex(nativeId, options));
  if (source === 'zenodo' && nativeId) steps.push(() => resolveZenodo(nativeId, options));
  if (doi) steps.push(() => resolveOpenAlexDoi(doi, options));
  if (url && url !== pdfUrl) steps.push(() => pdfAt(url, options));

  let firstFailure: PdfFetchError | undefined;
  for (const step of steps) {
    try {
      const found = await step();
      if (found) return found;
    } catch (error) {
      const failure = toFetchError(error);
      if (failure.code === 'aborted') throw failure;
      firstFailure ??= failure;
    }
  }
  if (firstFailure) throw firstFailure;
  throw new PdfFetchError(
    'no_pdf',
    steps.length
      ? 'The record address does not serve a PDF'
      : 'The record has no address to find a PDF at',
  );
}

export { toFetchError as pdfFetchErrorFrom };
