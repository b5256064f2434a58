/**
 * Citation export of a workspace as BibTeX, BibLaTeX, RIS or CSL-JSON (what LaTeX's toolchains,
 * pandoc, Zotero, Paperpile and Mendeley read): each resource becomes a CSL item, written as JSON for
 * CSL-JSON; this service writes BibTeX and BibLaTeX (bibtex.ts) and RIS (ris.ts) itself, escaping
 * every value for its format (citation-js's writers let a name close a BibTeX entry, and wrapped RIS
 * lines).
 */
import { writeBibtex } from './bibtex.js';
import { writeRis } from './ris.js';
import type { ResourceRow } from './resources/store.js';
import { baseCitationKey, firstFreeKey } from '../records/index.js';
import {
  cslPlainText,
  cslTypeOf,
  currentMarkup,
  isArxivCategory,
  recordToCsl,
  withOlderNames,
  type BibRecord,
  type CslName,
} from '../records/index.js';
import { recordOfRow, storedTypeOf } from './resources/resource-record.js';

export type ExportFormat = 'bibtex' | 'biblatex' | 'ris' | 'csljson';

/**
 * A CSL item as exported: the record's every variable (src/records/csl.ts) under its CSL name, with
 * the few fields the writers here read typed.
 */
interface CslItem {
  id: string;
  'citation-key': string;
  type: string;
  /** None for a work without a title of its own (records/record.ts, `untitled`). */
  title?: string;
  author?: CslName[];
  editor?: CslName[];
  translator?: CslName[];
  /** A literal date ("forthcoming") has no date-parts. */
  issued?: { 'date-parts'?: number[][]; literal?: string };
  'container-title'?: string;
  publisher?: string;
  'publisher-place'?: string;
  volume?: string;
  issue?: string;
  page?: string;
  edition?: string;
  DOI?: string;
  PMID?: string;
  URL?: string;
  abstract?: string;
  keyword?: string;
  note?: string;
  /** An arXiv preprint's number as Zotero writes it (`arXiv:1410.5401`), with `publisher` `arXiv`. */
  number?: string;
  [variable: string]: unknown;
}

/** An arXiv e-print: its id without version and, when known, its primary category (`cs.LG`). */
export interface ArxivEprint {
  id: string;
  primaryClass?: string;
}

/**
 * A CSL item with the resource's tags (CSL's `keyword` is one string) and its arXiv e-print, if any
 * (CSL has no field for it): what the BibTeX and RIS writers read. Its text is plain; the rich text
 * of its fields (`markup`, by CSL variable) and the variables a CSL-JSON import brought that the
 * record has no field for (`otherVariables`) are for CSL-JSON and citations only (toCslItems).
 */
export type ExportItem = CslItem & {
  tags: string[];
  arxiv?: ArxivEprint;
  markup: Record<string, string>;
  otherVariables: Record<string, unknown>;
};

/** The file extension of a format's files (`bib`, `ris`, `json`). */
export const extensionOf = (format: ExportFormat): string => FORMATS[format].extension;

const FORMATS: Record<ExportFormat, { contentType: string; extension: string }> = {
  bibtex: { contentType: 'application/x-bibtex; charset=utf-8', extension: 'bib' },
  biblatex: { contentType: 'application/x-bibtex; charset=utf-8', extension: 'bib' },
  ris: { contentType: 'application/x-research-info-systems; charset=utf-8', extension: 'ris' },
  csljson: {
    contentType: 'application/vnd.citationstyles.csl+json; charset=utf-8',
    extension: 'json',
  },
};

/** Longest value of one exported field; `data` is free-form JSON, so a field could otherwise be 64 KB. */
const MAX_FIELD_LENGTH = 10_000;

/**
 * One line of text: every line break, tab and control character becomes a space. RIS is one field
 * per line (a newline in a value would start a forged record); BibTeX and CSL keep prose on one line too.
 */
function oneLine(value: string): string {
  return value
    .replace(/[\s\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim()
    .slice(0, MAX_FIELD_LENGTH);
}

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  return oneLine(value) || undefined;
}

/**
 * A DOI as the DOI grammar allows it (`10.<registrant>/<suffix>`, Crossref's pattern plus the `<>`
 * and `[]` of old SICI DOIs, `10.1603/0046-225x(2008)37[181:bdopaa]2.0.co;2`), else none. BibTeX
 * writes `doi` verbatim, so a `}` would end the field and the entry.
 */
const DOI = /^10\.\d{4,9}\/[-._;()[\]/:<>A-Za-z0-9]+$/;
function doiOf(value: unknown): string | undefined {
  const raw = text(value)?.replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '');
  return raw && DOI.test(raw) ? raw : undefined;
}

/**
 * An http(s) URL as it was given (`http://example.com` stays without the `/` a URL parser adds),
 * with braces, backslashes, quotes and white space percent-encoded so that none can end a BibTeX
 * `url` field.
 */
function urlOf(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return value
      .trim()
      .replace(
        /[{}\\\s"]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
      );
  } catch {
    return undefined;
  }
}

/** Digits only (a PubMed id). */
function pmidOf(value: unknown): string | undefined {
  const raw = text(value);
  return raw && /^\d{1,9}$/.test(raw) ? raw : undefined;
}

const ARXIV_ID = /^(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?\/\d{7})$/;
/** What the arXiv provider stores as the venue of a preprint (`arXiv cs.SE`): a category, not a journal. */
const ARXIV_VENUE = /^arxiv(?:\s+(\S+))?$/i;

/**
 * The arXiv e-print of a resource: its record's `arxivId`, else an arxiv.org/abs or /pdf URL, without
 * its version. Its primary class from the record's `arxivPrimaryClass` (an imported entry's
 * `primaryClass`), else `data.primaryCategory`, else an `arXiv cs.SE` venue (where the arXiv
 * provider put it before records were kept).
 */
function arxivOf(
  arxivId: string | undefined,
  primaryClass: string | undefined,
  data: Record<string, unknown>,
  url: string | null,
  venue: string | undefined,
): ArxivEprint | undefined {
  const fromUrl = url
    ? /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\/(.+?)(?:\.pdf)?$/i.exec(url)?.[1]
    : undefined;
  const raw = (text(arxivId) ?? fromUrl)?.replace(/^arxiv:/i, '').replace(/v\d+$/i, '');
  if (!raw || !ARXIV_ID.test(raw)) return undefined;
  const category =
    text(primaryClass) ??
    text(data.primaryCategory) ??
    (venue ? ARXIV_VENUE.exec(venue)?.[1] : undefined);
  return category && isArxivCategory(category) ? { id: raw, primaryClass: category } : { id: raw };
}

/**
 * Each resource's citation key: the one it holds (citation-keys/), never made anew here, so that an
 * export cites as the documents do whatever else the workspace holds. A row the start-up upgrade has
 * not reached yet is exported under the key it will be given.
 */
function citationKeys(items: Array<{ resource: ResourceRow; record: BibRecord }>): string[] {
  const taken = new Set(
    items.flatMap(({ resource }) =>
      resource.citationKey ? [resource.citationKey.toLowerCase()] : [],
    ),
  );
  return items.map(({ resource, record }) => {
    if (resource.citationKey) return resource.citationKey;
    const key = firstFreeKey(baseCitationKey({ record, title: resource.title }), taken);
    taken.add(key.toLowerCase());
    return key;
  });
}

/** Every string of a CSL value on one line (names, dates and lists too), as every format here needs. */
function linesFlattened(value: unknown): unknown {
  if (typeof value === 'string') return oneLine(value) || undefined;
  if (Array.isArray(value)) return value.map(linesFlattened);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .map(([key, inner]) => [key, linesFlattened(inner)])
        .filter(([, inner]) => inner !== undefined),
    );
  return value;
}

/** The CSL items of the resources with their tags and arXiv e-prints (the BibTeX and RIS writers' input). */
function toExportItems(resources: ResourceRow[]): ExportItem[] {
  const prepared = resources.map((resource) => {
    const record = recordOfRow(resource);
    const type = storedTypeOf(resource.type, record, resource.url);
    return { resource, record, type };
  });
  const keys = citationKeys(prepared);
  return prepared.map(({ resource, record, type }, index) => {
    const key = keys[index] ?? resource.id;
    const {
      DOI: rawDoi,
      PMID: rawPmid,
      ...variables
    } = linesFlattened(recordToCsl(record)) as Record<string, unknown>;
    const markup = linesFlattened(currentMarkup(record, resource.title)) as Record<string, string>;
    // A title longer than a resource's title is whole in its markup (records/markup.ts).
    const title = markup.title ? cslPlainText(markup.title).normalize('NFC') : resource.title;
    const item: CslItem = {
      ...variables,
      id: key,
      'citation-key': key,
      type: cslTypeOf(type),
      // A work without a title is cited without one, not by the display title it is listed by.
      ...(record.untitled ? {} : { title: oneLine(title) }),
    };
    const venue = text(record.containerTitle);
    const arxiv = arxivOf(
      record.arxivId,
      record.arxivPrimaryClass,
      resource.data,
      resource.url,
      text(resource.data.venue),
    );
    // A preprint names its archive (arXiv), not a journal: publisher and number as Zotero writes them.
    if (arxiv && !venue && (type === 'preprint' || type === 'article-journal')) {
      item.type = 'article';
      item.publisher ??= 'arXiv';
      item.number ??= `arXiv:${arxiv.id}`;
    }
    const doi = doiOf(rawDoi);
    if (doi) item.DOI = doi;
    const pmid = pmidOf(rawPmid);
    if (pmid) item.PMID = pmid;
    const url = urlOf(resource.url);
    if (url) item.URL = url;
    const keywords = resource.tags.map(oneLine).filter(Boolean);
    if (keywords.length) item.keyword = keywords.join(', ');
    const note = text(resource.notes);
    if (note) item.note = note;
    return {
      ...item,
      tags: keywords,
      ...(arxiv ? { arxiv } : {}),
      markup,
      otherVariables: (linesFlattened(record.otherVariables ?? {}) ?? {}) as Record<
        string,
        unknown
      >,
    };
  });
}

/**
 * The CSL items of the resources, as CSL-JSON exports them and citations read them: with the rich
 * text of their fields and the other variables a CSL-JSON import brought (never over the record's own).
 */
export function toCslItems(resources: ResourceRow[]): CslItem[] {
  return toExportItems(resources).map(
    ({ tags: _tags, arxiv: _arxiv, markup, otherVariables, ...item }) =>
      withOlderNames({ ...otherVariables, ...item, ...markup }) as CslItem,
  );
}

export async function exportCitations(
  resources: ResourceRow[],
  format: ExportFormat,
): Promise<{ body: string; contentType: string; extension: string }> {
  const { contentType, extension } = FORMATS[format];
  if (resources.length === 0)
    return { body: format === 'csljson' ? '[]\n' : '', contentType, extension };
  if (format !== 'csljson') {
    const items = toExportItems(resources);
    return {
      body: format === 'ris' ? writeRis(items) : await writeBibtex(items, format),
      contentType,
      extension,
    };
  }
  // Written as it is: citation-js's writer left out every variable it did not know (CSL 1.0.2's
  // `license`, citeproc-js's `multi`, a tool's `key`), which a record keeps and gives back.
  const body = JSON.stringify(toCslItems(resources), null, 2);
  return { body: `${body}\n`, contentType, extension };
}

/** `attachment` with an ASCII file name and the exact one in RFC 5987 form, from the workspace name. */
export function contentDisposition(workspaceName: string, extension: string): string {
  const stem =
    workspaceName
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'workspace';
  const exact = `${
    workspaceName
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-')
      .trim()
      .slice(0, 120) || 'workspace'
  }.${extension}`;
  const encoded = encodeURIComponent(exact).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${stem}.${extension}"; filename*=UTF-8''${encoded}`;
}
