/**
 * Citation keys as Better BibTeX makes them by default: the first author's family name lower-cased
 * and folded to ASCII, the year, the first significant word of the title (`vaswani2017attention`),
 * with a, b, … z, aa, ab, … when that key is taken. Pure: which keys are taken is the caller's to say.
 */
import { citedCreators, type BibRecord } from './record.js';

/** The longest key kept (BibTeX has no limit; a key is typed into documents). */
export const CITATION_KEY_MAX = 100;

/**
 * A key BibTeX and biber both read as one: printable ASCII without white space, the characters that
 * end a key or an entry (`,` `{` `}` `(` `)` `=`), quotes, and those TeX gives a meaning (`#` `%` `~`
 * `\`). Colons, slashes, hyphens, dots and the like are kept: keys such as `Vaswani:2017/attn-v2`
 * are common.
 */
const KEY_PATTERN = /^[!$&*+\-./0-9:;<>?@A-Z[\]^_`a-z|]+$/;

/** Why a key cannot be a citation key, or null when it can. */
export function citationKeyProblem(key: string): string | null {
  if (key.length === 0) return 'must not be empty';
  if (key.length > CITATION_KEY_MAX) return `must be at most ${CITATION_KEY_MAX} characters`;
  if (!KEY_PATTERN.test(key))
    return (
      'must be printable ASCII without spaces or any of , { } ( ) = " \' # % ~ \\ ' +
      '(the characters BibTeX and biber read as part of a key)'
    );
  return null;
}

export function isCitationKey(key: string): boolean {
  return citationKeyProblem(key) === null;
}

/** Letters NFKD does not take apart into a base letter and its accents. */
const FOLDED: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŀ: 'l',
  Ŀ: 'L',
  ŧ: 't',
  Ŧ: 'T',
};

/** The text folded to ASCII (ü → u, ł → l, ß → ss); letters with no ASCII form are dropped. */
export function foldToAscii(text: string): string {
  return text
    .replace(/[^\p{ASCII}]/gu, (c) => FOLDED[c] ?? c)
    .normalize('NFKD')
    .replace(/[^\p{ASCII}]/gu, '');
}

/** Words Better BibTeX skips when it looks for a title's first significant word (its `skipWords`). */
const SKIP_WORDS = new Set(
  (
    'a ab aboard about above across after against al along amid among an and anti around as at ' +
    'before behind below beneath beside besides between beyond but by d da das de del dell dello ' +
    'dei degli della delle dem den der des despite die do down du during ein eine einem einen ' +
    'einer eines el en et except for from gli i il in inside into is l la las le les like lo los ' +
    'near nor of off on onto or over past per plus round save since so some sur than the through ' +
    'to toward towards un una unas uno unos under underneath une unlike until up upon versus via ' +
    'von while with within without yet zu zum'
  ).split(' '),
);

/** Lower-case ASCII letters and digits of a text, nothing else. */
function keyPart(text: string | undefined): string {
  return foldToAscii(text ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The first word of the title that is not a skip word (the first word at all if every one is). */
function firstSignificantWord(title: string): string {
  // Words as a reader sees them: an apostrophe joins ("Don't"), any other mark separates.
  const words = foldToAscii(title.replace(/<[^>]*>/g, ' '))
    .replace(/['’]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);
  return words.find((word) => !SKIP_WORDS.has(word)) ?? words[0] ?? '';
}

/** What a key is made from: the record (its creators and issued year) and the work's title. */
export interface KeySource {
  record: BibRecord;
  /** Empty for a work without a title of its own. */
  title: string;
}

/**
 * The key a work gets before any suffix: `vaswani2017attention`. An organisation's whole name stands
 * for the family name; a work with no names starts with its year, one with no year or title goes
 * without; a work with none of them is `untitled`.
 */
export function baseCitationKey({ record, title }: KeySource): string {
  const first = citedCreators(record.creators)[0];
  const family = !first
    ? ''
    : first.family !== undefined
      ? `${first.nonDroppingParticle ?? ''}${first.family}`
      : (first.literal ?? first.given ?? '');
  const year = record.issued?.year;
  const key = `${keyPart(family)}${year !== undefined && year > 0 ? year : ''}${firstSignificantWord(record.untitled ? '' : title)}`;
  return (key || 'untitled').slice(0, CITATION_KEY_MAX - 3);
}

/** The n-th suffix (0 → a, 25 → z, 26 → aa, 27 → ab…), as Better BibTeX counts them. */
export function keySuffix(n: number): string {
  let suffix = '';
  let rest = n;
  do {
    suffix = String.fromCharCode(97 + (rest % 26)) + suffix;
    rest = Math.floor(rest / 26) - 1;
  } while (rest >= 0);
  return suffix;
}

/**
 * `key` itself when no key in `taken` is it (keys are compared without case, as BibTeX compares
 * them), else `key` with the first suffix that makes it free. `taken` holds lower-cased keys.
 */
export function firstFreeKey(key: string, taken: ReadonlySet<string>): string {
  if (!taken.has(key.toLowerCase())) return key;
  for (let n = 0; ; n++) {
    const candidate = `${key}${keySuffix(n)}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
