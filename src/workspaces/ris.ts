/**
 * RIS written from CSL items by this service rather than by citation-js, whose writer wraps values at
 * 70 characters: the reader joins the pieces with a space (the value changes), and a wrap that falls
 * before `ER  - ` in a value would end the record there and start a forged one. RIS has no escapes, so
 * safety is that every value is one line (export.ts makes it so) and is never wrapped: a line can only
 * start with the tag this writer puts there. Each tag is a `KW` line of its own. A name is
 * `Family, Given` by the format's own rule, so the commas of a name are read as that separator.
 */
import type { ExportItem } from './export.js';
import { ownValue } from '../platform/own-key.js';

const RIS_TYPE: Record<string, string> = {
  'article-journal': 'JOUR',
  book: 'BOOK',
  chapter: 'CHAP',
  'paper-conference': 'CPAPER',
  thesis: 'THES',
  report: 'RPRT',
  dataset: 'DATA',
  software: 'COMP',
  motion_picture: 'VIDEO',
  webpage: 'ELEC',
  'post-weblog': 'BLOG',
  // The rest as ris-fields.ts reads them back (Zotero's RIS types).
  'article-magazine': 'MGZN',
  'article-newspaper': 'NEWS',
  bill: 'BILL',
  'entry-dictionary': 'DICT',
  'entry-encyclopedia': 'ENCYC',
  figure: 'FIGURE',
  graphic: 'ART',
  hearing: 'HEAR',
  legal_case: 'CASE',
  legislation: 'STAT',
  manuscript: 'MANSCPT',
  map: 'MAP',
  pamphlet: 'PAMP',
  patent: 'PAT',
  personal_communication: 'PCOMM',
  song: 'SOUND',
  speech: 'SLIDE',
  standard: 'STAND',
};

/**
 * `Family, Given, Suffix` (Zotero's reading of RIS names): a name of one part keeps its comma
 * (`Doe Co.,` is a family name alone, `, Banksy` a given name alone), since a name without one is
 * an organisation's, kept whole. A dropping particle ("d'" of "John d'Jones") follows the given
 * names, where it is printed and not sorted on.
 */
function risName(name: NonNullable<ExportItem['author']>[number]): string {
  if (name.literal) return name.literal;
  const last = [name['non-dropping-particle'], name.family].filter(Boolean).join(' ');
  const given = [name.given, name['dropping-particle']].filter(Boolean).join(' ');
  return name.suffix ? `${last}, ${given}, ${name.suffix}` : `${last}, ${given}`.trimEnd();
}

/** A text variable of the item (CSL types them as unknown). */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

const pad = (part: number | undefined) => (part === undefined ? '' : String(part).padStart(2, '0'));

/** A CSL date as RIS writes one: `YYYY/MM/DD/` (parts unknown left empty). */
function risDate(date: unknown): string | undefined {
  const parts = (date as { 'date-parts'?: number[][] } | undefined)?.['date-parts']?.[0];
  const [year, month, day] = parts ?? [];
  return year === undefined ? undefined : `${year}/${pad(month)}/${pad(day)}/`;
}

/** Books' `A2` is their series editor and `A3` their editor; the other types have them the other way round (ris-fields.ts). */
const BOOK_TYPES = new Set(['BOOK', 'EBOOK', 'EDBOOK']);

function record(item: ExportItem): string {
  const [year] = item.issued?.['date-parts']?.[0] ?? [];
  const ty =
    item.type === 'article' && item['container-title']
      ? 'JOUR'
      : (ownValue(RIS_TYPE, item.type) ?? 'GEN');
  const names = (variable: string) =>
    Array.isArray(item[variable]) ? (item[variable] as Array<Parameters<typeof risName>[0]>) : [];
  const lines: Array<[string, string | undefined]> = [
    // CSL's `article` is a preprint: a journal article only when it names a journal.
    ['TY', ty],
    ['ID', item['citation-key']],
    ['TI', item.title],
    ['ST', textOf(item['title-short'])],
    ...(item.author ?? []).map((name): [string, string] => ['AU', risName(name)]),
    // ED, not A2: a book's A2 is its series editor (Zotero's reading, and ris-fields.ts's).
    ...(item.editor ?? []).map((name): [string, string] => ['ED', risName(name)]),
    ...names('collection-editor').map((name): [string, string] => [
      BOOK_TYPES.has(ty) ? 'A2' : 'A3',
      risName(name),
    ]),
    ...names('translator').map((name): [string, string] => ['A4', risName(name)]),
    // A patent's issuing authority (ris-fields.ts).
    ['A2', ty === 'PAT' ? textOf(item.authority) : undefined],
    ['PY', year?.toString()],
    ['DA', risDate(item.issued)],
    ['Y2', risDate(item.accessed)],
    ['T2', item['container-title']],
    ['J2', textOf(item['container-title-short'])],
    ['T3', textOf(item['collection-title'])],
    // A report's number is its SN, as Zotero reads and writes it; any other work's number is M1 (an
    // arXiv preprint's as Zotero writes one: `arXiv` the publisher, `arXiv:<id>` its number).
    ['SN', item.type === 'report' ? textOf(item.number) : undefined],
    ['M1', item.type === 'report' ? undefined : item.number],
    ['PB', item.publisher],
    ['CY', item['publisher-place']],
    ['ET', item.edition ?? (ty === 'COMP' ? textOf(item.version) : undefined)],
    ['NV', textOf(item['number-of-volumes'])],
    ['SE', textOf(item.section)],
    // A thesis's or report's kind ("PhD dissertation"), else the medium, where Zotero puts them.
    ['M3', textOf(item.genre) ?? textOf(item.medium)],
    ['LA', textOf(item.language)],
    ['CN', textOf(item['call-number'])],
    ['DB', textOf(item.archive)],
    // AN is the PubMed id when there is one (below), as Zotero writes it; else the archive location.
    ['AN', item.PMID ? undefined : textOf(item.archive_location)],
    ['DP', textOf(item.source)],
    ['VL', item.volume],
    ['IS', item.issue],
    ['SP', item.page],
    // SN is an ISBN or an ISSN, whichever the record has (ris-fields.ts tells them apart).
    ['SN', typeof item.ISBN === 'string' ? item.ISBN : undefined],
    ['SN', typeof item.ISSN === 'string' ? item.ISSN : undefined],
    ['DO', item.DOI],
    // The PubMed id as Zotero writes it: the accession number.
    ['AN', item.PMID],
    ['UR', item.URL],
    ['AB', item.abstract],
    ...item.tags.map((tag): [string, string] => ['KW', tag]),
    ['N1', item.note],
  ];
  const written = lines
    .filter((line): line is [string, string] => !!line[1])
    .map(([tag, value]) => `${tag}  - ${value}`);
  return `${written.join('\n')}\nER  - \n`;
}

/** The RIS file of the items, one record each, separated by a blank line. */
export function writeRis(items: ExportItem[]): string {
  return items.map(record).join('\n');
}
