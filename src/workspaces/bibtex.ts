/**
 * BibTeX and BibLaTeX written from CSL items by this service rather than by citation-js, whose writer
 * put one-word names and names starting with `,` inside braces unescaped: an author
 * `,X}}@misc{forged,…}` closed the entry and started a forged one. Here every value is escaped for
 * the kind of field it goes into, so that a BibTeX parser reads back exactly the value exported
 * (tested with @retorquere/bibtex-parser) and pdflatex with BibTeX (`plain`) or biblatex with biber
 * compiles it (test/toolchains/):
 *
 * - text fields (title, journal, abstract, note…): LaTeX's special characters (`& % $ # _ { } ~ ^ \`)
 *   become commands, braces included (`\textbraceleft{}`: BibTeX counts `\{` as a brace, so an escaped
 *   brace could still end a field), and the ligatures `--`, `''` and `` ` `` are broken up so that
 *   they stay what was typed. For `bibtex`, every other character past ASCII is a LaTeX command as
 *   unicode2latex (Better BibTeX's table) writes it for BibTeX, braced (`{\"u}`, `{\L}`), so that
 *   classic BibTeX sorts and prints it; `biblatex` is UTF-8, as biber reads it;
 * - titles keep their case protection (titleLatex): the braces an imported title came with (kept as
 *   the record's rich text, CSL `nocase` spans), else Better BibTeX's rule;
 * - names: `Family, Given` when both parts are plain words, else the whole name braced as one literal
 *   name (a `,` or ` and ` inside it splits nothing);
 * - page ranges with `--` (`4171--4186`);
 * - verbatim fields (`doi`, `url`, `eprint`) hold only what the DOI grammar, a percent-encoded URL
 *   and an arXiv id allow, which never includes a brace or a backslash;
 * - BibTeX's `month` is its month macro (`month = may`, unbraced), as Better BibTeX writes it;
 *   BibLaTeX's `date` and `urldate` are ISO 8601 (`2019-06`, a range `2001/2003`);
 * - `keywords` is a list split on `,` and `;`: those characters, braces, backslashes and `$` (an
 *   unclosed formula) become spaces in a keyword, the one place where a value cannot come back
 *   exactly.
 */

import type { Transform } from 'unicode2latex';
import type { ExportItem } from './export.js';
import { ownValue } from '../platform/own-key.js';
import { cslMarkupParts, type CslTag } from '../records/index.js';

export type BibDialect = 'bibtex' | 'biblatex';

/**
 * Entry types as Better BibTeX chooses them. CSL's `article` is a preprint: an `@article` only when it
 * names a journal, else `@misc` (BibLaTeX: `@online`), its e-print fields saying where it is.
 */
const BIBTEX_TYPE: Record<string, string> = {
  'article-journal': 'article',
  'article-magazine': 'article',
  'article-newspaper': 'article',
  book: 'book',
  chapter: 'incollection',
  'paper-conference': 'inproceedings',
  thesis: 'phdthesis',
  report: 'techreport',
};

const BIBLATEX_TYPE: Record<string, string> = {
  ...BIBTEX_TYPE,
  thesis: 'thesis',
  report: 'report',
  webpage: 'online',
  'post-weblog': 'online',
  dataset: 'dataset',
  software: 'software',
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

/** How a dialect writes text: its escaping, and (`bibtex`) its characters past ASCII as LaTeX. */
interface Writer {
  dialect: BibDialect;
  /** A value for a braced text field, read back by a BibTeX parser as exactly `value`. */
  text(value: string): string;
}

/** ASCII text with TeX's special characters as commands and its ligatures broken up. */
function escapeAscii(value: string): string {
  return value
    .replace(/[\\{}%#&$_^~<>`]/g, (character) => TEX_SPECIAL[character]!)
    .replace(/-(?=-)/g, '-{}')
    .replace(/'(?=')/g, "'{}");
}

let unicode2latex: Promise<Transform> | undefined;

/** Math alphabets LaTeX has only with a package (amssymb, mathrsfs, bbm, dsfont). */
const PACKAGE_MATH = /\\math(?:bb|frak|scr|bbm|ds)\b/;

/**
 * Characters past ASCII as unicode2latex writes them for BibTeX, one at a time; one LaTeX writes only
 * with a package (`𝕏`, `$\mathbb{X}$`) stays as it is, UTF-8, which a document can set up.
 */
function nonAscii(character: string, transform: Transform, known: Map<string, string>): string {
  let latex = known.get(character);
  if (latex === undefined) {
    latex = transform.tolatex(character);
    if (PACKAGE_MATH.test(latex)) latex = character;
    known.set(character, latex);
  }
  return latex;
}

/**
 * A letter with the combining marks NFC could not compose into one character (`q̇`): each mark an
 * accent command around it (`{\.{q}}`), as unicode2latex writes a mark alone.
 */
function marked(unit: string, transform: Transform, known: Map<string, string>): string {
  const [base, ...marks] = Array.from(unit);
  let latex = /\p{ASCII}/u.test(base!) ? escapeAscii(base!) : nonAscii(base!, transform, known);
  for (const mark of marks) {
    const accent = nonAscii(mark, transform, known);
    latex = /^\\(?:[a-zA-Z]+|[^a-zA-Z])$/.test(accent) ? `{${accent}{${latex}}}` : latex + accent;
  }
  return latex;
}

/**
 * The writer of a dialect. unicode2latex's table (600 KB) is loaded when BibTeX is first written with
 * a character past ASCII, not with the service.
 */
async function writerOf(dialect: BibDialect, items: ExportItem[]): Promise<Writer> {
  if (dialect === 'biblatex' || !/\P{ASCII}/u.test(JSON.stringify(items)))
    return { dialect, text: (value) => escapeAscii(value.normalize('NFC')) };
  unicode2latex ??= import('unicode2latex').then(
    // `bibtex-creator`: each command braced on its own (`{\"u}`), as BibTeX takes a special character.
    ({ Transform: Unicode2Latex }) => new Unicode2Latex('bibtex-creator'),
  );
  const transform = await unicode2latex;
  const known = new Map<string, string>();
  return {
    dialect,
    // Each character past ASCII, or letter with the marks NFC left on it, on its own.
    text: (value) =>
      value
        .normalize('NFC')
        .split(/(\P{M}\p{M}+|\P{ASCII})/u)
        .map((part, at) =>
          at % 2 === 0
            ? escapeAscii(part)
            : Array.from(part).length > 1
              ? marked(part, transform, known)
              : nonAscii(part, transform, known),
        )
        .join(''),
  };
}

// ---- titles ----

/** A word that keeps its case in Better BibTeX's rule: a capital past its first letter (`iPhone`, `SNE`), or capitals with digits (`Cas9`). */
function keepsCase(word: string): boolean {
  return /^.+\p{Lu}/u.test(word) || (/\p{Lu}/u.test(word) && /\p{N}/u.test(word));
}

/**
 * Plain text with Better BibTeX's case protection: each word (a run of letters and digits) that
 * keepsCase is braced, with its neighbours joined by `-`, `/`, `.` or `+` when they keep case too
 * (`{CRISPR/Cas9}`, `t-{SNE}`, `{BERT}:`), so that a style's sentence case leaves it as written.
 */
function protectWords(text: string, writer: Writer): string {
  const pieces = text.split(/([\p{L}\p{N}]+)/u);
  let out = '';
  let at = 0;
  while (at < pieces.length) {
    const word = pieces[at]!;
    if (at % 2 === 0 || !keepsCase(word)) {
      out += writer.text(word);
      at++;
      continue;
    }
    let end = at;
    while (
      end + 2 < pieces.length &&
      /^[-/.+]$/.test(pieces[end + 1]!) &&
      keepsCase(pieces[end + 2]!)
    )
      end += 2;
    out += braced(writer.text(pieces.slice(at, end + 1).join('')));
    at = end + 1;
  }
  return out;
}

/**
 * Text in a case-protecting group. A group starting with a command (`{\"U}ber`, `{\&Co}`) is a
 * special character to BibTeX, whose letters it still changes: that one is braced twice.
 */
function braced(latex: string): string {
  if (!latex) return '';
  return latex.startsWith('\\') ? `{{${latex}}}` : `{${latex}}`;
}

const COMMAND: Record<Exclude<CslTag, 'nocase' | 'nodecor'>, string> = {
  i: '\\textit',
  b: '\\textbf',
  sup: '\\textsuperscript',
  sub: '\\textsubscript',
  sc: '\\textsc',
};

type MarkupNode = { tag: CslTag | null; children: Array<MarkupNode | string> };

/** The rich text as a tree of its tags, or null when its tags do not nest. */
function markupTree(rich: string): MarkupNode | null {
  const root: MarkupNode = { tag: null, children: [] };
  const stack = [root];
  for (const part of cslMarkupParts(rich)) {
    const top = stack.at(-1)!;
    if ('text' in part) top.children.push(part.text);
    else if ('open' in part) {
      const node: MarkupNode = { tag: part.open, children: [] };
      top.children.push(node);
      stack.push(node);
    } else {
      const spans = ['nocase', 'nodecor', 'sc'];
      const closes = part.close === 'span' ? spans.includes(top.tag ?? '') : top.tag === part.close;
      if (stack.length === 1 || !closes) return null;
      stack.pop();
    }
  }
  return stack.length === 1 ? root : null;
}

function hasNocase(node: MarkupNode): boolean {
  return node.children.some(
    (child) => typeof child !== 'string' && (child.tag === 'nocase' || hasNocase(child)),
  );
}

function nodeLatex(node: MarkupNode, writer: Writer, protect: boolean): string {
  const inner = node.children
    .map((child) =>
      typeof child === 'string'
        ? protect
          ? protectWords(child, writer)
          : writer.text(child)
        : nodeLatex(child, writer, protect && child.tag !== 'nocase'),
    )
    .join('');
  if (node.tag === null || node.tag === 'nodecor') return inner;
  if (node.tag === 'nocase') return braced(inner);
  return `${COMMAND[node.tag]}{${inner}}`;
}

/**
 * A title in LaTeX with its case protection. A title that came with protection (an imported BibTeX
 * title's braces, a CSL-JSON title's `nocase` spans: the record's rich text, kept while the title is
 * unchanged) is protected exactly so, its braces where they were; any other (a provider's, one typed
 * or edited here) by Better BibTeX's rule (protectWords), the words the record marks `nocase` too.
 * Italics and the other CSL tags become `\textit{…}` and its kin.
 */
function titleLatex(plain: string, rich: string | undefined, writer: Writer): string {
  const tree = rich === undefined ? null : markupTree(rich);
  if (!tree) return protectWords(plain, writer);
  return nodeLatex(tree, writer, !hasNocase(tree));
}

// ---- names ----

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
function namePart(part: string, writer: Writer): string {
  return isPlainNamePart(part) && !/(^|\s)\p{Ll}/u.test(part)
    ? writer.text(part)
    : `{${writer.text(part)}}`;
}

/**
 * `von Last, Jr, First` in the comma form, each part braced unless plain (`{Family01}, Given01`: a
 * brace keeps a part's digits, commas and ` and ` from splitting anything), so that the parts come
 * back as they went: a family name alone keeps its comma (`Doe Co.,`, two words of one family name,
 * not a given and a family name), a given name alone has an empty family (`{}, Banksy`), and a
 * dropping particle ("d'" of "John d'Jones") follows the given names, where it is printed and not
 * sorted on. An organisation is braced whole, one literal name (`{Beijing Zoo}`).
 */
function bibtexName(name: NonNullable<ExportItem['author']>[number], writer: Writer): string {
  // `and others`, BibTeX's "et al." (Google Scholar's lists end so), stays the keyword it is.
  if (name.literal === 'others') return 'others';
  if (name.literal) return `{${writer.text(name.literal)}}`;
  const particle = name['non-dropping-particle']
    ?.split(' ')
    .map((word) =>
      /^\p{Ll}[\p{L}\p{M}.'’-]*$/u.test(word) ? writer.text(word) : `{${writer.text(word)}}`,
    )
    .join(' ');
  const family = name.family ? namePart(name.family, writer) : '{}';
  const last = particle ? `${particle} ${family}` : family;
  const given = [name.given, name['dropping-particle']].filter(Boolean).join(' ');
  if (name.suffix)
    return `${last}, ${namePart(name.suffix, writer)}, ${given ? namePart(given, writer) : ''}`.trimEnd();
  return `${last}, ${given ? namePart(given, writer) : ''}`.trimEnd();
}

/** The names of a role as BibTeX's name list, when the item has any. */
function nameList(names: unknown, writer: Writer): string | undefined {
  return Array.isArray(names) && names.length > 0
    ? (names as Array<Parameters<typeof bibtexName>[0]>)
        .map((name) => bibtexName(name, writer))
        .join(' and ')
    : undefined;
}

// ---- other fields ----

/**
 * A tag as one keyword of the list: without the list's separators (`,` `;`), braces, backslashes and
 * `$`, and TeX's other special characters escaped (biber writes keywords into the `.bbl`, where a
 * bare `%` would end the line).
 */
function keyword(tag: string): string {
  return tag
    .replace(/[,;{}\\$]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[%#&_^~]/g, (character) => TEX_SPECIAL[character]!);
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
function textOf(value: unknown, writer: Writer): string | undefined {
  return typeof value === 'string' && value ? writer.text(value) : undefined;
}

/**
 * Pages with BibTeX's range dash: each range of a list (`4171-4186`, `R40–R46`, `1-5, 7-9`) with
 * `--`; anything else (`e1001234`, `xii+320`) escaped as text.
 */
function pagesOf(page: string | undefined, writer: Writer): string | undefined {
  if (!page) return undefined;
  const ranges = page.split(/\s*,\s*/);
  const range = /^([\p{L}\p{N}.:]+)\s*[-‐‑‒–—]+\s*([\p{L}\p{N}.:]+)$/u;
  if (!ranges.every((part) => range.test(part) || /^[\p{L}\p{N}.:]+$/u.test(part)))
    return writer.text(page);
  return ranges
    .map((part) => {
      const match = range.exec(part);
      return match ? `${writer.text(match[1]!)}--${writer.text(match[2]!)}` : writer.text(part);
    })
    .join(', ');
}

type CslDateValue = {
  'date-parts'?: unknown[][];
  literal?: string;
  circa?: unknown;
};

/** `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`) of a date's parts, as BibLaTeX holds a date. */
function isoOfParts(parts: unknown[] | undefined): string | undefined {
  if (!parts?.length || !parts.every((part) => Number.isInteger(part))) return undefined;
  const [year, ...rest] = parts as number[];
  if (year! < 1 || year! > 9999) return undefined;
  return [
    String(year).padStart(4, '0'),
    ...rest.slice(0, 2).map((n) => String(n).padStart(2, '0')),
  ].join('-');
}

/** A CSL date as BibLaTeX's `date`: ISO 8601, a range `start/end`, `~` when circa. */
function isoDate(date: unknown): string | undefined {
  const parts = (date as CslDateValue | undefined)?.['date-parts'];
  const start = isoOfParts(parts?.[0]);
  if (!start) return undefined;
  const end = isoOfParts(parts?.[1]);
  const circa = (date as CslDateValue).circa ? '~' : '';
  return end ? `${start}${circa}/${end}${circa}` : `${start}${circa}`;
}

function entryType(item: ExportItem, dialect: BibDialect): string {
  if (item.type === 'article') {
    if (item['container-title']) return 'article';
    return dialect === 'biblatex' ? 'online' : 'misc';
  }
  return ownValue(dialect === 'biblatex' ? BIBLATEX_TYPE : BIBTEX_TYPE, item.type) ?? 'misc';
}

function shortTitle(item: ExportItem, writer: Writer): string | undefined {
  const short = item['title-short'];
  return typeof short === 'string' && short ? protectWords(short, writer) : undefined;
}

/** The fields of an entry in BibTeX, in Better BibTeX's order. */
function bibtexFields(item: ExportItem, type: string, writer: Writer) {
  const [year, month] = item.issued?.['date-parts']?.[0] ?? [];
  const text = (value: unknown) => textOf(value, writer);
  return [
    ['title', item.title ? titleLatex(item.title, item.markup.title, writer) : undefined],
    ['shorttitle', shortTitle(item, writer)],
    ['author', nameList(item.author, writer)],
    ['editor', nameList(item.editor, writer)],
    ['translator', nameList(item.translator, writer)],
    [
      type === 'inproceedings' || type === 'incollection' ? 'booktitle' : 'journal',
      text(item['container-title']),
    ],
    // BibTeX's styles print a report's institution and a thesis's school, not a `publisher`.
    [
      type === 'techreport' ? 'institution' : type === 'phdthesis' ? 'school' : 'publisher',
      text(item.publisher),
    ],
    ['address', text(item['publisher-place'])],
    ['series', text(item['collection-title'])],
    ['edition', text(item.edition)],
    ['volume', text(item.volume)],
    // BibTeX's `number` is a journal's issue, else a report's (or any work's) own number; an
    // arXiv preprint's `arXiv:<id>` is its e-print.
    ['number', text(item.issue) ?? (item.arxiv ? undefined : text(item.number))],
    ['pages', pagesOf(item.page, writer)],
    ['year', year?.toString()],
    ['month', month === undefined ? undefined : MONTH_MACROS[month - 1]],
    // A thesis's or report's kind ("PhD dissertation", "Working paper"), as BibTeX's styles print it.
    ['type', text(item.genre)],
    ['language', text(item.language)],
    ['eprint', item.arxiv?.id],
    ['archivePrefix', item.arxiv && 'arXiv'],
    ['primaryClass', item.arxiv?.primaryClass],
    ['isbn', text(item.ISBN)],
    ['issn', text(item.ISSN)],
    ['doi', item.DOI],
    ['pmid', item.PMID],
    ['url', item.URL],
    ['urldate', isoOfParts((item.accessed as CslDateValue | undefined)?.['date-parts']?.[0])],
    ['abstract', text(item.abstract)],
    ['keywords', item.tags.map(keyword).filter(Boolean).join(', ') || undefined],
    // The resource's notes, where Zotero and Better BibTeX put an item's notes.
    ['annote', text(item.note)],
  ] as Array<[string, string | undefined]>;
}

/** BibLaTeX's type keys for a thesis or report without a genre of its own. */
const DEFAULT_GENRE: Record<string, string> = { thesis: 'phdthesis', report: 'techreport' };

/**
 * The fields of an entry in BibLaTeX, as Better BibLaTeX names them: `journaltitle`, `location`,
 * `date`, `institution` for a thesis's or report's publisher, `eprint` with `eprinttype` (`arxiv`,
 * with `eprintclass`; else a PubMed id as `pubmed`), `annotation` for notes.
 */
function biblatexFields(item: ExportItem, type: string, writer: Writer) {
  const text = (value: unknown) => textOf(value, writer);
  const container = text(item['container-title']);
  const subtype =
    item.type === 'article-magazine'
      ? 'magazine'
      : item.type === 'article-newspaper'
        ? 'newspaper'
        : undefined;
  const eprint = item.arxiv
    ? { eprint: item.arxiv.id, eprinttype: 'arxiv', eprintclass: item.arxiv.primaryClass }
    : item.PMID
      ? { eprint: item.PMID, eprinttype: 'pubmed', eprintclass: undefined }
      : undefined;
  return [
    ['title', item.title ? titleLatex(item.title, item.markup.title, writer) : undefined],
    ['shorttitle', shortTitle(item, writer)],
    ['author', nameList(item.author, writer)],
    ['editor', nameList(item.editor, writer)],
    ['translator', nameList(item.translator, writer)],
    [
      type === 'article' ? 'journaltitle' : type === 'online' ? 'organization' : 'booktitle',
      type === 'online' && item.type === 'article' ? undefined : container,
    ],
    ['entrysubtype', subtype],
    [type === 'thesis' || type === 'report' ? 'institution' : 'publisher', text(item.publisher)],
    ['location', text(item['publisher-place'])],
    ['series', text(item['collection-title'])],
    ['edition', text(item.edition)],
    ['volume', text(item.volume)],
    ['number', text(item.issue) ?? (item.arxiv ? undefined : text(item.number))],
    ['pages', pagesOf(item.page, writer)],
    ['date', isoDate(item.issued)],
    ['type', text(item.genre) ?? ((type === 'thesis' || type === 'report') && DEFAULT_GENRE[type])],
    ['langid', text(item.language)],
    ['eprint', eprint?.eprint],
    ['eprinttype', eprint?.eprinttype],
    ['eprintclass', eprint?.eprintclass],
    ['isbn', text(item.ISBN)],
    ['issn', text(item.ISSN)],
    ['doi', item.DOI],
    ['url', item.URL],
    ['urldate', isoDate(item.accessed)],
    ['abstract', text(item.abstract)],
    ['keywords', item.tags.map(keyword).filter(Boolean).join(', ') || undefined],
    ['annotation', text(item.note)],
  ] as Array<[string, string | undefined | false]>;
}

function entry(item: ExportItem, writer: Writer): string {
  const type = entryType(item, writer.dialect);
  const fields =
    writer.dialect === 'biblatex'
      ? biblatexFields(item, type, writer)
      : bibtexFields(item, type, writer);
  // Every value is braced but `month`, a macro name (`month = may`).
  const lines = fields
    .filter((field): field is [string, string] => !!field[1])
    .map(([name, value]) => (name === 'month' ? `  month = ${value}` : `  ${name} = {${value}}`));
  return `@${type}{${item['citation-key']},\n${lines.join(',\n')}\n}\n`;
}

/** The BibTeX (or BibLaTeX) file of the items, one entry each, separated by a blank line. */
export async function writeBibtex(
  items: ExportItem[],
  dialect: BibDialect = 'bibtex',
): Promise<string> {
  const writer = await writerOf(dialect, items);
  return items.map((item) => entry(item, writer)).join('\n');
}
