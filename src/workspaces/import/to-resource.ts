/**
 * An entry read from a citation file as the resource it becomes: the inverse of export.ts, so that a
 * workspace exported and imported again holds the same resources. Values are kept as the add route
 * keeps them (plain text, HTML stripped, the same limits: longer text is shortened, not refused), and
 * the work key is the one adding computes (work-key.ts).
 */
import { stripHtml } from '../../platform/sanitize.js';
import { httpUrlOf, LIMITS } from '../schemas.js';
import type { NewResourceRow } from '../store.js';
import { normaliseArxivId, normaliseDoi, workKeyOf } from '../work-key.js';
import type { CslLike, CslName } from './formats.js';
import { ownValue } from '../../platform/own-key.js';

/** Resource types by CSL type (export.ts maps them back). */
const RESOURCE_TYPE: Record<string, string> = {
  'article-journal': 'article',
  'article-magazine': 'article',
  'article-newspaper': 'article',
  article: 'preprint',
  'paper-conference': 'conference-paper',
  chapter: 'chapter',
  book: 'book',
  thesis: 'thesis',
  report: 'report',
  dataset: 'dataset',
  software: 'software',
  motion_picture: 'video',
  webpage: 'webpage',
  'post-weblog': 'blog',
};

/** The longest abstract kept: what export writes of one field, and well inside `data`'s 64 KB. */
const MAX_ABSTRACT = 10_000;
const ARXIV_IN_TEXT =
  /\barxiv[:\s/]+(?:abs\/)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[a-z]{2})?\/\d{7}(?:v\d+)?)/i;
const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"<>{}]+)/;

/** Plain text on one line (or with its paragraphs, for notes), HTML stripped, at most `max` characters. */
function clean(
  value: unknown,
  max: number,
  options: { multiline?: boolean } = {},
): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  // NFC: the BibTeX parser writes accents as combining marks (`E` + U+0301), a typed title has `É`.
  // `\,` and its kin (TeX's small spaces) are left by the BibTeX reader as written.
  let text = stripHtml(value.replace(/\0/g, '').replace(/\\[,;:!]/g, ' ')).normalize('NFC');
  text = options.multiline
    ? text
        .replace(/\r\n?/g, '\n')
        .replace(/[^\S\n]+/g, ' ')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : text.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
}

function nameText(name: CslName): string | undefined {
  if (name.literal) return clean(name.literal, LIMITS.author);
  const family = [name['dropping-particle'], name['non-dropping-particle'], name.family]
    .filter(Boolean)
    .join(' ');
  const whole = [name.given, family].filter(Boolean).join(' ');
  return clean(name.suffix ? `${whole}, ${name.suffix}` : whole, LIMITS.author);
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as a looked-up resource keeps its `publishedDate`. */
function publishedDate(issued: CslLike['issued']): string | undefined {
  const parts = issued?.['date-parts']?.[0];
  if (Array.isArray(parts) && parts.length > 0) {
    const [year, month, day] = parts.map((part) => Number(part));
    if (!Number.isInteger(year) || year! < 1 || year! > 9999) return undefined;
    const pad = (n: number) => String(n).padStart(2, '0');
    if (!month || !Number.isInteger(month) || month < 1 || month > 12)
      return String(year).padStart(4, '0');
    if (!day || !Number.isInteger(day) || day < 1 || day > 31)
      return `${String(year).padStart(4, '0')}-${pad(month)}`;
    return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
  }
  const raw = issued?.raw ?? issued?.literal;
  const match =
    typeof raw === 'string' ? /\b(\d{4})(?:[-/](\d{1,2}))?(?:[-/](\d{1,2}))?/.exec(raw) : null;
  if (!match) return undefined;
  return publishedDate({
    'date-parts': [
      match
        .slice(1)
        .filter((part) => part !== undefined)
        .map(Number),
    ],
  });
}

/** Tags from `keywords` (a list, or one string split on `,` and `;`), cleaned as the add route's tags are. */
function tagsOf(keyword: CslLike['keyword']): string[] {
  const raw = Array.isArray(keyword)
    ? keyword
    : typeof keyword === 'string'
      ? keyword.split(/[,;]/)
      : [];
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const value of raw) {
    const tag = clean(value, LIMITS.tag);
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
    if (tags.length === LIMITS.tags) break;
  }
  return tags;
}

/** The first DOI and arXiv id found in the entry: its own fields first, then its URL, note and the rest. */
function identifiersOf(item: CslLike): { doi?: string; arxivId?: string; pmid?: string } {
  const texts = [item.URL, item.note, item.number, ...(item.extra ?? [])].filter(
    (value): value is string => typeof value === 'string',
  );
  // Kept as written (DOIs ignore case, readers do not), without its `doi:` or resolver prefix.
  const doi = [
    item.DOI,
    ...texts.map((text) => DOI_IN_TEXT.exec(text)?.[1]?.replace(/[.,;)\]]+$/, '')),
  ]
    .map((value) =>
      typeof value === 'string' && normaliseDoi(value)
        ? value
            .trim()
            .replace(/^doi:\s*/i, '')
            .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
        : null,
    )
    .find(Boolean);
  const arxivId = [
    item.arxivId,
    ...texts.map((text) => ARXIV_IN_TEXT.exec(text)?.[1]),
    ...texts.map(
      (text) => /arxiv\.org\/(?:abs|pdf)\/([^\s?#]+?)(?:\.pdf)?(?:[?#\s]|$)/i.exec(text)?.[1],
    ),
  ]
    .map((value) => (typeof value === 'string' ? normaliseArxivId(value) : null))
    .find(Boolean);
  const pmid =
    typeof item.PMID === 'string' || typeof item.PMID === 'number' ? String(item.PMID).trim() : '';
  return {
    ...(doi ? { doi } : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(/^\d{1,9}$/.test(pmid) ? { pmid } : {}),
  };
}

/** The resource an entry becomes, or why it cannot become one. */
export function resourceOf(
  workspaceId: string,
  item: CslLike,
): { values: NewResourceRow; year: string | null } | { reason: string } {
  const title = clean(item.title, LIMITS.title);
  if (!title) return { reason: 'The entry has no title' };
  const names =
    Array.isArray(item.author) && item.author.length > 0
      ? item.author
      : Array.isArray(item.editor)
        ? item.editor
        : [];
  const authors = names
    .filter((name): name is CslName => !!name && typeof name === 'object')
    .map(nameText)
    .filter((name): name is string => !!name)
    .slice(0, LIMITS.authors);
  const ids = identifiersOf(item);
  const url = httpUrlOf(typeof item.URL === 'string' ? item.URL.trim() : undefined) ?? null;
  const date = publishedDate(item.issued);
  const data: Record<string, unknown> = Object.fromEntries(
    Object.entries({
      publishedDate: date,
      venue: clean(item['container-title'], LIMITS.title),
      publisher: clean(item.publisher, LIMITS.title),
      volume: clean(item.volume, LIMITS.type),
      issue: clean(item.issue, LIMITS.type),
      pages: clean(item.page, LIMITS.type),
      abstract: clean(item.abstract, MAX_ABSTRACT, { multiline: true }),
      ...ids,
    }).filter(([, value]) => value !== undefined),
  );
  const values: NewResourceRow = {
    workspaceId,
    resourceId: null,
    workKey: workKeyOf({ doi: ids.doi, arxivId: ids.arxivId, pmid: ids.pmid, url }),
    title,
    url,
    type: (typeof item.type === 'string' && ownValue(RESOURCE_TYPE, item.type)) || null,
    authors,
    tags: tagsOf(item.keyword),
    notes: clean(item.note, LIMITS.notes, { multiline: true }) ?? '',
    data,
  };
  return { values, year: date?.slice(0, 4) ?? null };
}

/**
 * A work without identifiers is known by its title and year: lower case, accents and punctuation
 * gone, so that `The DNA of École` and `the dna of ecole.` are one work. No key without a year.
 */
export function titleYearKey(title: string, year: string | null): string | null {
  if (!year) return null;
  const words = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return words ? `${words}|${year}` : null;
}

/** The year of a stored resource, read as export.ts reads it. */
export function yearOfData(data: Record<string, unknown>): string | null {
  for (const field of ['publishedDate', 'date', 'year']) {
    const value = data[field];
    const match =
      typeof value === 'string' || typeof value === 'number'
        ? /^(\d{4})/.exec(String(value).trim())
        : null;
    if (match) return match[1]!;
  }
  return null;
}
