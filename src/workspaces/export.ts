/**
 * Citation export of a workspace as BibTeX, RIS or CSL-JSON (what Zotero, Paperpile and Mendeley
 * import), through citation-js: each resource becomes a CSL item, the library writes the format.
 */
import { Cite } from '@citation-js/core';
import { parse as parseName } from '@citation-js/name';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import type { ResourceRow } from './store.js';

export type ExportFormat = 'bibtex' | 'ris' | 'csljson';

interface CslName {
  given?: string;
  family?: string;
  literal?: string;
  'non-dropping-particle'?: string;
  'dropping-particle'?: string;
  suffix?: string;
}

interface CslItem {
  id: string;
  'citation-key': string;
  type: string;
  title: string;
  author?: CslName[];
  issued?: { 'date-parts': number[][] };
  'container-title'?: string;
  publisher?: string;
  volume?: string;
  issue?: string;
  page?: string;
  DOI?: string;
  PMID?: string;
  URL?: string;
  abstract?: string;
  keyword?: string;
}

const FORMATS: Record<ExportFormat, { contentType: string; extension: string }> = {
  bibtex: { contentType: 'application/x-bibtex; charset=utf-8', extension: 'bib' },
  ris: { contentType: 'application/x-research-info-systems; charset=utf-8', extension: 'ris' },
  csljson: { contentType: 'application/vnd.citationstyles.csl+json; charset=utf-8', extension: 'json' },
};

/** CSL item types by resource type; anything else is an article when it has a DOI, else a web page. */
const CSL_TYPE: Record<string, string> = {
  article: 'article-journal',
  'journal-article': 'article-journal',
  paper: 'article-journal',
  preprint: 'article',
  book: 'book',
  chapter: 'chapter',
  'book-chapter': 'chapter',
  conference: 'paper-conference',
  'conference-paper': 'paper-conference',
  proceedings: 'paper-conference',
  thesis: 'thesis',
  dissertation: 'thesis',
  report: 'report',
  dataset: 'dataset',
  software: 'software',
  video: 'motion_picture',
  webpage: 'webpage',
  website: 'webpage',
  blog: 'post-weblog',
};

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (from `data.publishedDate`, `data.date` or `data.year`) as CSL date parts. */
function issued(data: Record<string, unknown>): CslItem['issued'] {
  const raw = text(data.publishedDate) ?? text(data.date) ?? text(data.year);
  const match = raw ? /^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?/.exec(raw) : null;
  if (!match) return undefined;
  const parts = match.slice(1).filter((part): part is string => part !== undefined).map(Number);
  return { 'date-parts': [parts] };
}

function authorName(name: string): CslName {
  const parsed = name.includes(',') || /\s/.test(name.trim()) ? parseName(name) : { family: name.trim() };
  return parsed.family ? parsed : { literal: name };
}

function asciiWord(value: string | undefined): string {
  return (value ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '');
}

/** `Family2017Title`, made unique with a, b, c… when two resources would share it. */
function citationKeys(items: Array<{ family?: string; year?: number; title: string }>): string[] {
  const base = items.map(({ family, year, title }) => {
    const firstWord = title.split(/\s+/).map(asciiWord).find((word) => word.length > 3) ?? asciiWord(title.split(/\s+/)[0]);
    const key = `${asciiWord(family)}${year ?? ''}${firstWord.charAt(0).toUpperCase()}${firstWord.slice(1).toLowerCase()}`;
    return key || 'item';
  });
  const total = new Map<string, number>();
  for (const key of base) total.set(key, (total.get(key) ?? 0) + 1);
  const seen = new Map<string, number>();
  return base.map((key) => {
    if ((total.get(key) ?? 0) < 2) return key;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    return `${key}${String.fromCharCode(97 + (index % 26))}${index >= 26 ? Math.floor(index / 26) : ''}`;
  });
}

export function toCslItems(resources: ResourceRow[]): CslItem[] {
  const prepared = resources.map((resource) => {
    const data = resource.data;
    const author = resource.authors.map(authorName);
    const date = issued(data);
    return { resource, data, author, date };
  });
  const keys = citationKeys(
    prepared.map(({ resource, author, date }) => ({
      family: author[0]?.family ?? author[0]?.literal,
      year: date?.['date-parts'][0]?.[0],
      title: resource.title,
    })),
  );
  return prepared.map(({ resource, data, author, date }, index) => {
    const key = keys[index] ?? resource.id;
    const doi = text(data.doi) ?? text(data.DOI);
    const item: CslItem = {
      id: key,
      'citation-key': key,
      type: (resource.type && CSL_TYPE[resource.type]) || (doi ? 'article-journal' : 'webpage'),
      title: resource.title,
    };
    if (author.length) item.author = author;
    if (date) item.issued = date;
    const container = text(data.venue) ?? text(data.journal) ?? text(data['container-title']);
    if (container) item['container-title'] = container;
    for (const field of ['publisher', 'volume', 'issue'] as const) {
      const value = text(data[field]);
      if (value) item[field] = value;
    }
    const page = text(data.pages) ?? text(data.page);
    if (page) item.page = page;
    if (doi) item.DOI = doi;
    const pmid = text(data.pmid);
    if (pmid) item.PMID = pmid;
    if (resource.url) item.URL = resource.url;
    const abstract = text(data.abstract);
    if (abstract) item.abstract = abstract;
    if (resource.tags.length) item.keyword = resource.tags.join(', ');
    return item;
  });
}

export function exportCitations(resources: ResourceRow[], format: ExportFormat): { body: string; contentType: string; extension: string } {
  const items = toCslItems(resources);
  const { contentType, extension } = FORMATS[format];
  if (items.length === 0) return { body: format === 'csljson' ? '[]\n' : '', contentType, extension };
  const cite = new Cite(items);
  const body = format === 'csljson' ? cite.format('data') : cite.format(format);
  return { body: body.endsWith('\n') ? body : `${body}\n`, contentType, extension };
}

/** `attachment` with an ASCII file name and the exact one in RFC 5987 form, from the workspace name. */
export function contentDisposition(workspaceName: string, extension: string): string {
  const stem = workspaceName.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'workspace';
  const exact = `${workspaceName.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-').trim().slice(0, 120) || 'workspace'}.${extension}`;
  const encoded = encodeURIComponent(exact).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${stem}.${extension}"; filename*=UTF-8''${encoded}`;
}
