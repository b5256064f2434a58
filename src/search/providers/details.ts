/**
 * Small readers the providers share to fill a result's `details` (types.ts, BibliographicDetails):
 * names read from strings, page ranges, ISSN/ISBN lists and language codes.
 */
import { creatorFromText } from '../../records/index.js';
import type { Creator, CreatorRole } from '../../records/index.js';
import { collapseWhitespace } from '../text.js';
import type { BibliographicDetails } from '../types.js';

/** The details with empty values left out; undefined when nothing is left. */
export function compactDetails(details: BibliographicDetails): BibliographicDetails | undefined {
  const compact: BibliographicDetails = {};
  for (const [key, value] of Object.entries(details) as Array<
    [keyof BibliographicDetails, BibliographicDetails[keyof BibliographicDetails]]
  >) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    (compact as Record<string, unknown>)[key] = typeof value === 'string' ? value.trim() : value;
  }
  return Object.keys(compact).length > 0 ? compact : undefined;
}

/** Names given as strings ("Grace Hopper", "Hopper, Grace"), structured as well as one string allows. */
export function creatorsFromNames(
  names: readonly string[],
  role: CreatorRole = 'author',
): Creator[] {
  return names
    .map((name) => creatorFromText(collapseWhitespace(name), role))
    .filter((creator): creator is Creator => !!creator);
}

/** A creator from parts a provider gives apart; an organisation's name is a `literal`. */
export function creatorFromParts(
  role: CreatorRole,
  parts: { family?: string; given?: string; suffix?: string; literal?: string },
): Creator | null {
  const clean = (text: string | undefined) => (text ? collapseWhitespace(text) : '');
  const literal = clean(parts.literal);
  if (literal) return { role, literal };
  const family = clean(parts.family);
  const given = clean(parts.given);
  if (!family) return given ? creatorFromText(given, role) : null;
  const creator: Creator = { role, family };
  if (given) creator.given = given;
  const suffix = clean(parts.suffix);
  if (suffix) creator.suffix = suffix;
  return creator;
}

const PAGE = /^([A-Za-z]*)(\d+)([A-Za-z]*)$/;

export interface PageStyle {
  /**
   * Ends written with only their changed digits, as MEDLINE writes them (`123-9` is 123–129,
   * `S23-8` is S23–S28): written out.
   */
  abbreviated?: boolean;
  /** Ranges that run backwards (Semantic Scholar's `117 - 97`): turned round. */
  reversed?: boolean;
}

/** One range as `first-last`, read in the given style; left as it came when it is not two pages. */
function pageRangeText(range: string, style: PageStyle): string {
  const [startText, endText, ...rest] = range.split(/\s*[-–—]+\s*/);
  if (!startText || !endText || rest.length > 0) return range;
  const start = PAGE.exec(startText);
  const end = PAGE.exec(endText);
  if (!start || !end) return `${startText}-${endText}`;
  const startDigits = start[2] ?? '';
  let endDigits = end[2] ?? '';
  let endPrefix = end[1] ?? '';
  if (style.reversed && Number(endDigits) < Number(startDigits)) return `${endText}-${startText}`;
  if (style.abbreviated && endDigits.length < startDigits.length) {
    endDigits = startDigits.slice(0, startDigits.length - endDigits.length) + endDigits;
    endPrefix ||= start[1] ?? '';
  }
  return `${startText}-${endPrefix}${endDigits}${end[3] ?? ''}`;
}

/** Pages as a record keeps them: ranges joined by a hyphen, each of a list (`1116-22, 1130`) on its own. */
export function pagesText(value: string | undefined, style: PageStyle = {}): string | undefined {
  const text = value ? collapseWhitespace(value) : '';
  if (!text) return undefined;
  return text
    .split(/\s*,\s*/)
    .map((range) => pageRangeText(range, style))
    .join(', ');
}

/** `first-last` from the two ends a provider gives apart (`first` alone when they are equal). */
export function pagesFromEnds(
  first: string | undefined,
  last: string | undefined,
): string | undefined {
  const start = first ? collapseWhitespace(first) : '';
  const end = last ? collapseWhitespace(last) : '';
  if (!start) return end || undefined;
  return end && end !== start ? `${start}-${end}` : start;
}

/** Several ISSNs or ISBNs as one value, each once, separated by `, ` (as Zotero keeps them). */
export function joinedIdentifiers(values: ReadonlyArray<string | undefined>): string | undefined {
  const unique = [
    ...new Set(values.map((value) => (value ? collapseWhitespace(value) : '')).filter(Boolean)),
  ];
  return unique.length > 0 ? unique.join(', ') : undefined;
}

/**
 * ISO 639-2/3 codes (as MEDLINE and Zenodo give them) of the languages most works are written in,
 * with their ISO 639-1 code: CSL's `language` is a BCP 47 tag, which uses the two-letter code.
 */
const TWO_LETTER_CODES: Readonly<Record<string, string>> = {
  ara: 'ar',
  chi: 'zh',
  zho: 'zh',
  cze: 'cs',
  ces: 'cs',
  dan: 'da',
  dut: 'nl',
  nld: 'nl',
  eng: 'en',
  fin: 'fi',
  fre: 'fr',
  fra: 'fr',
  ger: 'de',
  deu: 'de',
  gre: 'el',
  ell: 'el',
  heb: 'he',
  hun: 'hu',
  ita: 'it',
  jpn: 'ja',
  kor: 'ko',
  nor: 'no',
  pol: 'pl',
  por: 'pt',
  rus: 'ru',
  spa: 'es',
  swe: 'sv',
  tur: 'tr',
  ukr: 'uk',
};

/** A language tag from a provider's code: `en`, `en-US` as given; `eng` → `en`; anything else left out. */
export function languageTag(code: string | undefined): string | undefined {
  const text = code?.trim() ?? '';
  if (/^[a-z]{2}(?:-[A-Za-z0-9]{2,8})*$/i.test(text)) return text;
  return Object.hasOwn(TWO_LETTER_CODES, text.toLowerCase())
    ? TWO_LETTER_CODES[text.toLowerCase()]
    : undefined;
}
