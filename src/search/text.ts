/**
 * Turning what providers send (JATS, HTML fragments, PubMed inline markup, HTML entities) into plain text,
 * and the normalisations merging relies on.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ownValue } from '../platform/own-key.js';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  minus: '\u2212',
  middot: '\u00b7',
  bull: '\u2022',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  sbquo: '\u201a',
  bdquo: '\u201e',
  laquo: '\u00ab',
  raquo: '\u00bb',
  prime: '\u2032',
  Prime: '\u2033',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
  plusmn: '\u00b1',
  times: '\u00d7',
  divide: '\u00f7',
  micro: '\u00b5',
  para: '\u00b6',
  sect: '\u00a7',
  le: '\u2264',
  ge: '\u2265',
  ne: '\u2260',
  asymp: '\u2248',
  infin: '\u221e',
  rarr: '\u2192',
  larr: '\u2190',
  harr: '\u2194',
  alpha: '\u03b1',
  beta: '\u03b2',
  gamma: '\u03b3',
  delta: '\u03b4',
  epsilon: '\u03b5',
  kappa: '\u03ba',
  lambda: '\u03bb',
  mu: '\u03bc',
  pi: '\u03c0',
  sigma: '\u03c3',
  tau: '\u03c4',
  phi: '\u03c6',
  chi: '\u03c7',
  omega: '\u03c9',
  Delta: '\u0394',
  Sigma: '\u03a3',
  Omega: '\u03a9',
  aacute: '\u00e1',
  agrave: '\u00e0',
  acirc: '\u00e2',
  auml: '\u00e4',
  atilde: '\u00e3',
  aring: '\u00e5',
  eacute: '\u00e9',
  egrave: '\u00e8',
  ecirc: '\u00ea',
  euml: '\u00eb',
  iacute: '\u00ed',
  igrave: '\u00ec',
  icirc: '\u00ee',
  iuml: '\u00ef',
  oacute: '\u00f3',
  ograve: '\u00f2',
  ocirc: '\u00f4',
  ouml: '\u00f6',
  otilde: '\u00f5',
  oslash: '\u00f8',
  uacute: '\u00fa',
  ugrave: '\u00f9',
  ucirc: '\u00fb',
  uuml: '\u00fc',
  ntilde: '\u00f1',
  ccedil: '\u00e7',
  szlig: '\u00df',
  Aacute: '\u00c1',
  Eacute: '\u00c9',
  Oacute: '\u00d3',
  Uacute: '\u00da',
  Auml: '\u00c4',
  Ouml: '\u00d6',
  Uuml: '\u00dc',
  Oslash: '\u00d8',
  Ccedil: '\u00c7',
  Ntilde: '\u00d1',
  aelig: '\u00e6',
  AElig: '\u00c6',
  oelig: '\u0153',
};

/**
 * Decodes numeric character references and common named HTML entities. A named entity missing its
 * semicolon (`&rdquo` at the end of an OpenAlex token) is decoded too; unknown names are left alone.
 */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (match, name: string) => {
    if (name.startsWith('#')) {
      const hex = name[1] === 'x' || name[1] === 'X';
      const code = Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return match;
      return String.fromCodePoint(code);
    }
    return ownValue(NAMED_ENTITIES, name) ?? match;
  });
}

/** Whitespace that is not already a single space: a run of two or more, or a newline, tab, no-break space… */
const WHITESPACE_TO_FOLD = /\s{2,}|[^\S ]/g;

/** Collapses runs of whitespace (including no-break spaces and newlines) to one space and trims. */
export function collapseWhitespace(text: string): string {
  // Single spaces are left alone rather than replaced by themselves: most of an abstract is those.
  return text.replace(WHITESPACE_TO_FOLD, ' ').trim();
}

/** Block-level elements of HTML, JATS and PubMed markup: each starts a new line of text. */
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'list',
  'list-item',
  'sec',
  'section',
  'abstract',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
  'blockquote',
  'pre',
  'fig',
  'caption',
  'table-wrap',
  'def-item',
  'disp-formula',
  'statement',
  'boxed-text',
  'hr',
]);
const HEADING_TAGS = new Set(['title', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements whose content is never prose. */
const SKIPPED_TAGS = new Set([
  'script',
  'style',
  'mml:annotation',
  'annotation',
  'object-id',
  'label',
]);
const VOID_TAGS = ['br', 'hr', 'img', 'wbr', 'input', 'meta', 'link', 'col', 'area', 'source'];
/** A lone heading that only says "Abstract" carries no information. */
const ABSTRACT_HEADING = /^(abstract|summary|graphical abstract)$/i;

const fragmentParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  // Entities are decoded once, by decodeHtmlEntities, which knows the HTML names XML parsers do not.
  processEntities: false,
  unpairedTags: VOID_TAGS,
  // Callbacks get the parser's path object rather than a string built for every node (none reads it).
  jPath: false,
});

type OrderedNode = Record<string, unknown>;

/**
 * Plain text of a markup fragment (JATS abstract, HTML description, PubMed inline markup). Inline
 * elements (`<i>`, `<sub>`, `<jats:italic>`) dissolve into the text; block elements become line breaks;
 * a section heading is kept as `Heading: ` in front of its text; a leading "Abstract" heading is dropped.
 */
export function markupToText(fragment: string): string {
  if (!/<[a-z!?/]/i.test(fragment)) return normaliseLines(decodeHtmlEntities(fragment));
  const wrapped = `<fragment-root>${escapeStrayMarkup(fragment)}</fragment-root>`;
  const valid = XMLValidator.validate(wrapped, { unpairedTags: VOID_TAGS });
  if (valid !== true) return normaliseLines(decodeHtmlEntities(stripTagsLeniently(fragment)));
  const tree = fragmentParser.parse(wrapped) as OrderedNode[];
  const lines: string[] = [];
  let current = '';
  const flush = (): void => {
    const line = collapseWhitespace(current);
    if (line) lines.push(line);
    current = '';
  };
  const walk = (nodes: OrderedNode[], depth: number): void => {
    for (const node of nodes) {
      for (const [key, value] of Object.entries(node)) {
        if (key === ':@') continue;
        if (key === '#text') {
          current += decodeHtmlEntities(String(value));
          continue;
        }
        const tag = key.toLowerCase();
        const children = Array.isArray(value) ? (value as OrderedNode[]) : [];
        if (SKIPPED_TAGS.has(tag)) continue;
        if (HEADING_TAGS.has(tag)) {
          const heading = collapseWhitespace(textOf(children));
          flush();
          // Top-level "Abstract" headings are noise; section headings label what follows.
          if (heading && !(depth <= 1 && ABSTRACT_HEADING.test(heading)))
            current = `${heading.replace(/[:.]$/, '')}: `;
          continue;
        }
        if (BLOCK_TAGS.has(tag)) {
          if (!/:\s$/.test(current)) flush();
          walk(children, depth + 1);
          if (!/:\s$/.test(current)) flush();
          continue;
        }
        walk(children, depth + 1);
      }
    }
  };
  walk(tree, 0);
  flush();
  return lines.join('\n');
}

function textOf(nodes: OrderedNode[]): string {
  let out = '';
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node)) {
      if (key === ':@') continue;
      if (key === '#text') out += decodeHtmlEntities(String(value));
      else if (Array.isArray(value)) out += textOf(value as OrderedNode[]);
    }
  }
  return out;
}

/** Escapes a `<` that does not open a tag and an `&` that does not start an entity, so "p < 0.05" survives. */
function escapeStrayMarkup(fragment: string): string {
  return fragment
    .replace(/<(?![a-z!?/])/gi, '&lt;')
    .replace(/&(?!(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);)/gi, '&amp;');
}

/** Last resort for markup no parser accepts: drop anything that looks like a tag. */
function stripTagsLeniently(fragment: string): string {
  return fragment
    .replace(/<\/?(p|div|br|li|sec|section|h\d|tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
}

function normaliseLines(text: string): string {
  return text.split('\n').map(collapseWhitespace).filter(Boolean).join('\n');
}

/** Plain text of a short inline field (a title): markup removed, entities decoded, one line. */
export function inlineMarkupToText(fragment: string): string {
  return collapseWhitespace(markupToText(fragment).replace(/\n/g, ' '));
}

/**
 * A title reduced for comparison: accents and case folded, punctuation and markup gone, one space
 * between words. "The Role of AI in Ecology’s…" and "the role of ai in ecology's" compare equal.
 */
export function normaliseTitle(title: string): string {
  // Most titles are ASCII: skip Unicode normalisation for them (merging runs this on every record).
  if (!/[\u0080-\uffff]/.test(title))
    return title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** A month given as a number ("06", "6") or an English name/abbreviation ("Jun", "June"). */
export function parseMonth(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (/^\d{1,2}$/.test(text)) {
    const month = Number(text);
    return month >= 1 && month <= 12 ? month : undefined;
  }
  return ownValue(MONTHS, text.slice(0, 3).toLowerCase());
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` from parts, at the precision known; null without a valid year. */
export function isoDateFromParts(
  year: number | undefined,
  month?: number,
  day?: number,
): string | null {
  if (year === undefined || !Number.isInteger(year) || year < 1000 || year > 9999) return null;
  const yyyy = String(year);
  if (month === undefined || !Number.isInteger(month) || month < 1 || month > 12) return yyyy;
  const mm = String(month).padStart(2, '0');
  if (day === undefined || !Number.isInteger(day) || day < 1 || day > 31) return `${yyyy}-${mm}`;
  return `${yyyy}-${mm}-${String(day).padStart(2, '0')}`;
}

/** The date part of an ISO date or date-time string (`2019-12-05T19:00:10.000Z` → `2019-12-05`). */
export function isoDateFromString(value: string | null | undefined): string | null {
  if (!value) return null;
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value.trim());
  if (!match) return null;
  return isoDateFromParts(
    Number(match[1]),
    match[2] ? Number(match[2]) : undefined,
    match[3] ? Number(match[3]) : undefined,
  );
}

export function yearOf(isoDate: string | null): number | null {
  if (!isoDate) return null;
  const year = Number(isoDate.slice(0, 4));
  return Number.isInteger(year) ? year : null;
}

/** Bare, lower-cased DOI from a DOI, `doi:` form or doi.org URL; undefined when it is not a DOI. */
export function normaliseDoi(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  let doi = value.trim();
  doi = doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').replace(/^doi:\s*/i, '');
  try {
    if (/%[0-9a-f]{2}/i.test(doi)) doi = decodeURIComponent(doi);
  } catch {
    // keep the raw form
  }
  return /^10\.\d{4,9}\/\S+$/.test(doi) ? doi.toLowerCase() : undefined;
}

/** arXiv id without its version (`2304.05376v2` → `2304.05376`, `cond-mat/0603029v1` → `cond-mat/0603029`). */
export function stripArxivVersion(id: string): string {
  return id.replace(/v\d+$/i, '');
}

/** The arXiv id behind an arXiv DataCite DOI (`10.48550/arxiv.2304.05376`), if it is one. */
export function arxivIdFromDoi(doi: string | undefined): string | undefined {
  const match = doi ? /^10\.48550\/arxiv\.(.+)$/i.exec(doi) : null;
  return match?.[1] ? stripArxivVersion(match[1]) : undefined;
}

/** "Family, Given" (Zenodo's creator format) → "Given Family"; anything else unchanged. */
export function givenFirst(name: string): string {
  const parts = name.split(',');
  if (parts.length !== 2) return collapseWhitespace(name);
  const family = collapseWhitespace(parts[0] ?? '');
  const given = collapseWhitespace(parts[1] ?? '');
  return given && family ? `${given} ${family}` : collapseWhitespace(name.replace(',', ''));
}
