/**
 * BibTeX written from CSL items by this service rather than by citation-js, whose writer put one-word
 * names and names starting with `,` inside braces unescaped: an author `,X}}@misc{forged,…}` closed the
 * entry and started a forged one. Here every value is escaped for the kind of field it goes into, so
 * that a BibTeX parser reads back exactly the value exported (tested with @retorquere/bibtex-parser):
 *
 * - text fields (title, journal, abstract, note…): TeX's special characters become commands, braces
 *   included (`\textbraceleft{}`: BibTeX counts `\{` as a brace, so an escaped brace could still end a
 *   field), and the ligatures `--`, `''` and `` ` `` are broken up so that they stay what was typed;
 * - names: `Family, Given` when both parts are plain words, else the whole name braced as one literal
 *   name (a `,` or ` and ` inside it splits nothing);
 * - verbatim fields (`doi`, `url`) hold only what the DOI grammar and a percent-encoded URL allow, which
 *   never includes a brace or a backslash;
 * - `month` is BibTeX's month macro (`month = may`, unbraced), as Better BibTeX writes it;
 * - `urldate` (when the work was accessed) is an ISO date, digits and hyphens only, as BibLaTeX has it;
 * - `keywords` is a verbatim list split on `,` and `;`: those characters, braces, backslashes and `$`
 *   (an unclosed formula) become spaces in a keyword, the one place where a value cannot come back
 *   exactly.
 */

import type { ExportItem } from './export.js';
import { ownValue } from '../platform/own-key.js';

/**
 * Entry types as Better BibTeX chooses them. CSL's `article` is a preprint: an `@article` only when it
 * names a journal, else `@misc` (an arXiv preprint's e-print fields say where it is).
 */
const ENTRY_TYPE: Record<string, string> = {
  'article-journal': 'article',
  book: 'book',
  chapter: 'incollection',
  'paper-conference': 'inproceedings',
  thesis: 'phdthesis',
  report: 'techreport',
};

const TEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '%': '\\%',
  '#': '\\#',
  '&': '\\&',
  $: '\\$',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '`': '{`}',
};

/** A value for a braced text field: read back by a BibTeX parser as exactly `value` (one line, see export.ts). */
function escapeBibtexText(value: string): string {
  return value
    .replace(/[\\{}%#&$_^~<>`]/g, (character) => TEX_SPECIAL[character]!)
    .replace(/-(?=-)/g, '-{}')
    .replace(/'(?=')/g, "'{}");
}

/** A name TeX and BibTeX's name parser leave alone: letters, marks, spaces, `.`, `'`, `’` and single hyphens. */
function isPlainNamePart(part: string | undefined): part is string {
  return (
    !!part &&
    /^\p{L}[\p{L}\p{M} .'’-]*$/u.test(part) &&
    !/\band\b/i.test(part) &&
    !/--|''/.test(part)
  );
}

/**
 * A part of a person's name as BibTeX's name parser reads it back: as written when plain, else
 * braced (one word). A part with a word in lower case is braced too, or the parser would take that
 * word for a particle (`{Regina Célia de}` stays the given names).
 */
function namePart(part: string): string {
  return isPlainNamePart(part) && !/(^|\s)\p{Ll}/u.test(part)
    ? part
    : `{${escapeBibtexText(part)}}`;
}

/**
 * `von Last, Jr, First` in the comma form, each part braced unless plain (`{Family01}, Given01`: a
 * brace keeps a part's digits, commas and ` and ` from splitting anything), so that the parts come
 * back as they went: a family name alone keeps its comma (`Doe Co.,`, two words of one family name,
 * not a given and a family name), a given name alone has an empty family (`{}, Banksy`), and a
 * dropping particle ("d'" of "John d'Jones") follows the given names, where it is printed and not
 * sorted on. An organisation is braced whole, one literal name (`{Beijing Zoo}`).
 */
function bibtexName(name: NonNullable<ExportItem['author']>[number]): string {
  if (name.literal) return `{${escapeBibtexText(name.literal)}}`;
  const particle = name['non-dropping-particle']
    ?.split(' ')
    .map((word) => (/^\p{Ll}[\p{L}\p{M}.'’-]*$/u.test(word) ? word : `{${escapeBibtexText(word)}}`))
    .join(' ');
  const family = name.family ? namePart(name.family) : '{}';
  const last = particle ? `${particle} ${family}` : family;
  const given = [name.given, name['dropping-particle']].filter(Boolean).join(' ');
  if (name.suffix)
    return `${last}, ${namePart(name.suffix)}, ${given ? namePart(given) : ''}`.trimEnd();
  return `${last}, ${given ? namePart(given) : ''}`.trimEnd();
}

function keyword(tag: string): string {
  return tag
    .replace(/[,;{}\\$]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const MONTH_MACROS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
];

/** A text variable of the item (CSL types them as unknown), escaped for a braced field. */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value ? escapeBibtexText(value) : undefined;
}

/** `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`) of a CSL date, as BibLaTeX's `urldate` holds it. */
function isoDate(date: unknown): string | undefined {
  const parts = (date as { 'date-parts'?: unknown[][] } | undefined)?.['date-parts']?.[0];
  if (!parts?.length || !parts.every((part) => Number.isInteger(part))) return undefined;
  const [year, ...rest] = parts as number[];
  if (year! < 1 || year! > 9999) return undefined;
  return [
    String(year).padStart(4, '0'),
    ...rest.slice(0, 2).map((n) => String(n).padStart(2, '0')),
  ].join('-');
}

function entryType(item: ExportItem): string {
  if (item.type === 'article') return item['container-title'] ? 'article' : 'misc';
  return ownValue(ENTRY_TYPE, item.type) ?? 'misc';
}

/** The names of a role as BibTeX's name list, when the item has any. */
function nameList(names: unknown): string | undefined {
  return Array.isArray(names) && names.length > 0
    ? (names as Array<Parameters<typeof bibtexName>[0]>).map(bibtexName).join(' and ')
    : undefined;
}

function entry(item: ExportItem): string {
  const type = entryType(item);
  const [year, month] = item.issued?.['date-parts']?.[0] ?? [];
  // Every value is braced but `month`, a macro name (`month = may`).
  const fields: Array<[string, string | undefined]> = [
    ['title', textOf(item.title)],
    ['shorttitle', textOf(item['title-short'])],
    ['author', nameList(item.author)],
    ['editor', nameList(item.editor)],
    ['translator', nameList(item.translator)],
    [
      type === 'inproceedings' || type === 'incollection' ? 'booktitle' : 'journal',
      item['container-title'] && escapeBibtexText(item['container-title']),
    ],
    // BibTeX's styles print a report's institution and a thesis's school, not a `publisher`.
    [
      type === 'techreport' ? 'institution' : type === 'phdthesis' ? 'school' : 'publisher',
      item.publisher && escapeBibtexText(item.publisher),
    ],
    ['address', item['publisher-place'] && escapeBibtexText(item['publisher-place'])],
    ['series', textOf(item['collection-title'])],
    ['edition', item.edition && escapeBibtexText(item.edition)],
    ['volume', item.volume && escapeBibtexText(item.volume)],
    // BibTeX's `number` is a journal's issue, else a report's (or any work's) own number; an
    // arXiv preprint's `arXiv:<id>` is its e-print.
    ['number', textOf(item.issue) ?? (item.arxiv ? undefined : textOf(item.number))],
    ['pages', item.page && escapeBibtexText(item.page)],
    ['year', year?.toString()],
    ['month', month === undefined ? undefined : MONTH_MACROS[month - 1]],
    // A thesis's or report's kind ("PhD dissertation", "Working paper"), as BibTeX's styles print it.
    ['type', textOf(item.genre)],
    ['language', textOf(item.language)],
    ['eprint', item.arxiv?.id],
    ['archivePrefix', item.arxiv && 'arXiv'],
    ['primaryClass', item.arxiv?.primaryClass],
    ['isbn', textOf(item.ISBN)],
    ['issn', textOf(item.ISSN)],
    ['doi', item.DOI],
    ['pmid', item.PMID],
    ['url', item.URL],
    ['urldate', isoDate(item.accessed)],
    ['abstract', item.abstract && escapeBibtexText(item.abstract)],
    ['keywords', item.tags.map(keyword).filter(Boolean).join(', ') || undefined],
    // The resource's notes, where Zotero and Better BibTeX put an item's notes.
    ['annote', item.note && escapeBibtexText(item.note)],
  ];
  const lines = fields
    .filter((field): field is [string, string] => !!field[1])
    .map(([name, value]) => (name === 'month' ? `  month = ${value}` : `  ${name} = {${value}}`));
  return `@${type}{${item['citation-key']},\n${lines.join(',\n')}\n}\n`;
}

/** The BibTeX file of the items, one entry each, separated by a blank line. */
export function writeBibtex(items: ExportItem[]): string {
  return items.map(entry).join('\n');
}
