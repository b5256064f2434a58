/**
 * A RIS record (its tags and their values, as citation-js's RIS reader splits them) as a CSL item.
 * The mapping is Zotero's (its RIS.js translator, the reference other tools are measured against),
 * said in CSL's words; citation-js's own mapping follows the 2011 RIS document instead, which reads
 * `TT` as the title and `TA` as the author, leaves `TY  - WEB` empty and drops the authors of news,
 * films, music and legal records.
 *
 * - `TI` is the title; `TT` (a translation of it) stays out of the title and is kept as a note line,
 *   as Zotero keeps it: CSL 1.0.2 has no variable for a translated title, and `original-title` means
 *   the opposite (the title of the original of a translation).
 * - `AU`/`A1` are authors whatever the type; `A2` editors (series editors of a book, the issuing
 *   authority of a patent), `A3` series
 *   editors (editors of a book), `A4` and `TA` translators, `ED` editors.
 * - A name is `Family, Given, Suffix`; a name without a comma is an organisation (`literal`), as
 *   Zotero reads it.
 */
import { creatorFromParts, nameToCsl, namesAnOrganisation } from '../../records/index.js';
import { ownValue } from '../../platform/own-key.js';
import type { CslLike, CslName } from './formats.js';

export type RisRecord = Record<string, string | string[]>;

/** RIS types as CSL types (Zotero's importTypeMap and exportTypeMap, then Zotero's CSL mapping). */
const TYPES: Record<string, string> = {
  ABST: 'article-journal',
  ADVS: 'motion_picture',
  AGGR: 'document',
  ANCIENT: 'document',
  ART: 'graphic',
  BILL: 'bill',
  BLOG: 'post-weblog',
  BOOK: 'book',
  CASE: 'legal_case',
  CHAP: 'chapter',
  CHART: 'graphic',
  CLSWK: 'book',
  COMP: 'software',
  CONF: 'paper-conference',
  CPAPER: 'paper-conference',
  CTLG: 'article-magazine',
  DATA: 'dataset',
  DBASE: 'dataset',
  DICT: 'entry-dictionary',
  EBOOK: 'book',
  ECHAP: 'chapter',
  EDBOOK: 'book',
  EJOUR: 'article-journal',
  ELEC: 'webpage',
  ENCYC: 'entry-encyclopedia',
  EQUA: 'document',
  FIGURE: 'figure',
  GEN: 'article-journal',
  GOVDOC: 'report',
  GRNT: 'document',
  HEAR: 'hearing',
  ICOMM: 'personal_communication',
  INPR: 'manuscript',
  JFULL: 'article-journal',
  JOUR: 'article-journal',
  LEGAL: 'legal_case',
  MANSCPT: 'manuscript',
  MAP: 'map',
  MGZN: 'article-magazine',
  MPCT: 'motion_picture',
  MULTI: 'motion_picture',
  MUSIC: 'song',
  NEWS: 'article-newspaper',
  PAMP: 'pamphlet',
  PAT: 'patent',
  PCOMM: 'personal_communication',
  RPRT: 'report',
  SER: 'book',
  SLIDE: 'speech',
  SOUND: 'song',
  STAND: 'standard',
  STAT: 'legislation',
  THES: 'thesis',
  UNBILL: 'bill',
  UNPD: 'manuscript',
  VIDEO: 'motion_picture',
  WEB: 'webpage',
};

/** Where `T2` goes: the container for most types, the series for books, reports, software and maps. */
const T2_IS_SERIES = new Set(['BOOK', 'EBOOK', 'EDBOOK', 'RPRT', 'COMP', 'MAP']);
/** Journals, magazines and newspapers: `SN` is their ISSN (else an ISBN, unless it looks like an ISSN). */
const SERIALS = new Set(['JOUR', 'JFULL', 'EJOUR', 'ABST', 'GEN', 'MGZN', 'NEWS', 'CTLG']);
/** Types whose `M1` is their number (a bill's, a law's, a patent's application, a hearing's document). */
const M1_IS_NUMBER = new Set(['BILL', 'UNBILL', 'STAT', 'HEAR', 'PAT']);

/** Each tag's values, in order (citation-js gives one value as a string, repeated tags as a list). */
function valuesOf(record: RisRecord, tag: string): string[] {
  const value = record[tag];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .map((text) => text.trim())
    .filter(Boolean);
}

/** A generational suffix or a degree: one or more words that start upper-case or with a digit ("Jr.", "III", "PhD", "3rd"). */
const SUFFIX_PART = /^(?:[\p{Lu}\d][\p{L}\d.]*\s*)+$/u;

/**
 * `Family, Given, Suffix` as a CSL name (`Doe Co.,` a family name alone, `, Banksy` a given name
 * alone); no comma: an organisation, whole. RIS has no escapes, so a comma inside a part is read as
 * well as it can be: the trailing parts are the suffix only when they read as one ("Jr.", "III"),
 * else they belong to the given names as written ("Aubignac, François Hédelin, abbé d'"), or, when
 * the name names an organisation ("Council on Cardiopulmonary, Critical Care, …"), it is kept whole.
 */
function risName(text: string): CslName {
  const value = text.trim();
  if (!value.includes(',')) return { literal: value };
  // `Baldwin,S.A.` (no space after the comma) is `Baldwin, S.A.`.
  const parts = value.split(',').map((part) => part.trim());
  let suffixFrom = parts.length;
  while (suffixFrom > 2 && SUFFIX_PART.test(parts[suffixFrom - 1]!)) suffixFrom -= 1;
  // Three parts or more and no suffix: not `Family, Given, Suffix`; an organisation's name whole.
  if (parts.length > 2 && suffixFrom === parts.length && namesAnOrganisation(value))
    return { literal: value };
  const family = parts[0]!;
  const given =
    suffixFrom === parts.length
      ? value.slice(value.indexOf(',') + 1).trim()
      : parts.slice(1, suffixFrom).join(', ');
  const creator = creatorFromParts({ family, given, suffix: parts.slice(suffixFrom).join(', ') });
  return creator ? nameToCsl(creator) : { literal: value };
}

/** `YYYY/MM/DD/other`, `YYYY-MM-DD` or `YYYY` as CSL date parts; else the text, as `literal`. */
function risDate(text: string): CslLike['issued'] | undefined {
  const value = text.trim();
  if (!value) return undefined;
  const match = /^(\d{4})(?:[/-](\d{1,2})?)?(?:[/-](\d{1,2})?)?(?:\/(.*))?$/.exec(value);
  if (!match) return { literal: value };
  const parts = [match[1], match[2], match[3]].filter((part): part is string => !!part).map(Number);
  // A month without a year's day is kept; a day without its month is not.
  const datePart = match[2] ? parts : [parts[0]!];
  const season = match[4]?.trim();
  return {
    'date-parts': [datePart],
    ...(season && !/^\d*$/.test(season) ? { season } : {}),
  };
}

const DOI = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)?(10\.\d{4,9}\/\S+)$/i;
const ISSN = /^\d{4}-?\d{3}[\dXx]$/;

/**
 * `record` is the record's tags (citation-js's split); `lines` its tag lines in the spec's form, for
 * the names, whose order across tags (`AU` and `A1` lines mixed) the split does not keep.
 */
export function risItem(record: RisRecord, lines: string[] = []): CslLike {
  const ty = String(valuesOf(record, 'TY')[0] ?? 'GEN')
    .toUpperCase()
    .replace(/^JOURN$/, 'JOUR');
  const first = (...tags: string[]) => tags.map((tag) => valuesOf(record, tag)[0]).find(Boolean);
  // Each tag's values in order, the tags in the order they first appear.
  const all = (...tags: string[]) =>
    Object.keys(record)
      .filter((tag) => tags.includes(tag))
      .flatMap((tag) => valuesOf(record, tag));
  const names = (...tags: string[]) => {
    const inOrder = lines
      .filter((line) => tags.includes(line.slice(0, 2)) && line.startsWith('  - ', 2))
      .map((line) => line.slice(6).trim())
      .filter(Boolean);
    // A name continued on the next line is only in the split record: then its order is taken.
    const values = inOrder.length === all(...tags).length ? inOrder : all(...tags);
    return values.map(risName);
  };
  const type = ownValue(TYPES, ty);
  const item: CslLike & Record<string, unknown> = {
    type: type ?? 'document',
    ...(type && ty !== 'GEN' ? { ris: { type: ty } } : {}),
  };
  const set = (variable: string, value: unknown) => {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return;
    if (item[variable] === undefined) item[variable] = value;
  };

  set(
    'title',
    first('TI', 'T1', 'CT') ?? (ty === 'BOOK' || ty === 'MANSCPT' ? first('BT') : undefined),
  );
  const translatedTitle = first('TT');

  set('author', names('AU', 'A1'));
  const bookSeries = ty === 'BOOK' || ty === 'EBOOK' || ty === 'EDBOOK';
  // A patent's A2 is the authority that issued it, and its M1 the application number (Zotero's
  // issuingAuthority and applicationNumber: CSL's authority and call-number).
  const patent = ty === 'PAT';
  if (patent) set('authority', first('A2'));
  set('editor', [...names('ED'), ...(patent ? [] : names(bookSeries ? 'A3' : 'A2'))]);
  set('collection-editor', names(bookSeries ? 'A2' : 'A3'));
  set('translator', names('A4', 'TA'));

  // The container: T2 (or the proceedings' C3, a chapter's BT), then the journal tags.
  const t2 = first('T2');
  if (ty === 'CONF' || ty === 'CPAPER') {
    const proceedings = first('C3', 'BT');
    set('container-title', proceedings ?? t2);
    if (proceedings && t2) set('event-title', t2);
    set('event-place', first('C1'));
  } else if (T2_IS_SERIES.has(ty)) {
    set('collection-title', t2);
  } else {
    set('container-title', t2);
  }
  set('container-title', ty === 'CHAP' || ty === 'ECHAP' ? first('BT') : undefined);
  set('container-title', first('JF', 'JO', 'BT'));
  set('container-title-short', first('J2', 'JA', 'J1', 'JO'));
  set('collection-title', first('T3'));

  const date = [first('DA'), first('PY'), first('Y1')].map((text) => text && risDate(text));
  // DA is the full date; PY (or Y1) the year, kept when DA is missing or says less.
  const fullest = date.reduce<CslLike['issued'] | undefined>((best, next) => {
    if (!next) return best;
    const length = (value?: CslLike['issued']) => value?.['date-parts']?.[0]?.length ?? 0;
    return !best || length(next) > length(best) ? next : best;
  }, undefined);
  set('issued', fullest);
  set('accessed', first('Y2') ? risDate(first('Y2')!) : undefined);

  set('abstract', first('AB', 'N2'));
  const notes = all('N1', 'RN');
  if (translatedTitle) notes.push(`Translated Title: ${translatedTitle}`);
  set('note', notes.length ? notes.join('\n\n') : undefined);
  set(
    'keyword',
    all('KW')
      .flatMap((line) => line.split(/\s*;\s*/))
      .filter(Boolean),
  );

  set('publisher', first('PB'));
  set('publisher-place', first('CY', 'PP'));
  set('edition', ty === 'COMP' ? undefined : first('ET'));
  set('version', ty === 'COMP' ? first('ET') : undefined);
  set('volume', first('VL'));
  set('issue', first('IS'));
  set('number-of-volumes', first('NV'));
  set('section', first('SE'));
  set('language', first('LA'));
  set('title-short', first('ST'));
  // Citavi writes the library and call number as H1 and H2 (Zotero reads them as DP and CN).
  set('call-number', first('CN', 'H2'));
  set('archive', first('DB'));
  set('archive_location', first('AN'));
  set('source', first('DP', 'H1'));
  set('number', M1_IS_NUMBER.has(ty) && !patent ? first('M1') : undefined);
  set('call-number', patent ? first('M1') : undefined);
  // Wiley's journal records put the issue in M1 (Zotero reads it so when there is no IS).
  set('issue', SERIALS.has(ty) ? first('M1') : undefined);

  const start = first('SP');
  const end = first('EP');
  if (start && end && !start.includes('-')) set('page', `${start}-${end}`);
  else if (start && !end && (ty === 'BOOK' || ty === 'THES') && !/[-–]/.test(start))
    set('number-of-pages', start);
  else set('page', start ?? end);

  // M3 is a medium or kind (`Letter`, `PhD thesis`, `DVD`); some tools put the DOI there.
  const m3 = first('M3');
  const m3Doi = m3 ? DOI.exec(m3)?.[1] : undefined;
  set('DOI', first('DO') ?? m3Doi);
  if (m3 && !m3Doi)
    set(['ART', 'MPCT', 'VIDEO', 'SOUND', 'MUSIC'].includes(ty) ? 'medium' : 'genre', m3);

  for (const serial of all('SN')) {
    const number = serial.replace(/\s*\(.*\)$/, '').trim();
    if (ty === 'RPRT' || ty === 'PAT') set('number', number);
    else if (
      ISSN.test(number) ||
      (SERIALS.has(ty) && !/^\d{9,13}[\dXx]?$/.test(number.replace(/-/g, '')))
    )
      set('ISSN', number);
    else set('ISBN', number);
  }

  const urls = all('UR')
    .flatMap((line) => line.split(/\s+/))
    .filter(Boolean);
  set('URL', urls[0]);
  const files = [
    ...all('L1').map((url) => ({ url, mimeType: 'application/pdf', title: 'Full Text PDF' })),
    ...all('L2').map((url) => ({ url, mimeType: 'text/html', title: 'Full Text' })),
    ...all('L4').map((url) => ({ url, title: 'Image' })),
  ];
  set('attachments', files);

  // What the mapping does not name is kept as written, where identifiers are looked for.
  const named = new Set([
    'TY',
    'ER',
    'ID',
    'TI',
    'T1',
    'CT',
    'BT',
    'TT',
    'AU',
    'A1',
    'A2',
    'A3',
    'A4',
    'ED',
    'TA',
    'T2',
    'T3',
    'C1',
    'C3',
    'JF',
    'JO',
    'J2',
    'JA',
    'J1',
    'DA',
    'PY',
    'Y1',
    'Y2',
    'AB',
    'N2',
    'N1',
    'RN',
    'KW',
    'PB',
    'CY',
    'PP',
    'ET',
    'VL',
    'IS',
    'NV',
    'SE',
    'LA',
    'ST',
    'CN',
    'DB',
    'AN',
    'DP',
    'SP',
    'EP',
    'M3',
    'DO',
    'SN',
    'UR',
    'L1',
    'L2',
    'L4',
  ]);
  if (M1_IS_NUMBER.has(ty) || SERIALS.has(ty)) named.add('M1');
  named.add('H1');
  named.add('H2');
  const extra = Object.keys(record)
    .filter((tag) => !named.has(tag))
    .flatMap((tag) => valuesOf(record, tag).map((value) => `${tag}  - ${value}`));
  set('extra', extra);
  return item;
}
