/**
 * A name given as one string ("Grace Hopper", "Hopper, Grace", "van Gogh, Vincent", "World Health
 * Organization") as a structured creator. Used where only strings exist: resources saved before
 * records were structured, providers that give names as text, a person typing a name. Imports and
 * providers with structured names keep theirs.
 */
import { createRequire } from 'node:module';
import type { Creator } from './record.js';
import type { CreatorRole } from './vocabulary.js';

/**
 * citation-js's name parser, a CommonJS package, loaded by `require`: a static import of it in a
 * worker thread started from source fails on Node 20 (the ESM loader's hooks are not in the worker).
 */
const { parse: parseName } = createRequire(import.meta.url)(
  '@citation-js/name',
) as typeof import('@citation-js/name');

/** Generational suffixes written after a name without a comma ("Martin Luther King Jr."). */
const SUFFIX = /^(?:jr\.?|sr\.?|ii|iii|iv|v|vi)$/i;

/**
 * Words that make a name an organisation's: kept whole (`literal`), never split into family and
 * given ("Beijing Zoo" is not Zoo, B.).
 */
const ORGANISATION =
  /\b(?:academy|agency|association|bureau|center|centre|collaboration|college|commission|committee|company|consortium|corporation|council|department|foundation|group|inc|initiative|institute|laboratory|league|ltd|ministry|museum|network|office|organi[sz]ation|partnership|project|society|team|trust|university|working party|zoo)\b/i;

interface ParsedName {
  given?: string;
  family?: string;
  suffix?: string;
  'dropping-particle'?: string;
  'non-dropping-particle'?: string;
}

/** The words of a name, whatever separates them, sorted: a parse must keep every one. */
function wordsOf(text: string): string {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

function keepsEveryWord(parsed: ParsedName, text: string): boolean {
  const parts = [
    parsed.given,
    parsed['dropping-particle'],
    parsed['non-dropping-particle'],
    parsed.family,
    parsed.suffix,
  ];
  return !!parsed.family && wordsOf(parts.filter(Boolean).join(' ')) === wordsOf(text);
}

function fromParsed(role: CreatorRole, parsed: ParsedName): Creator {
  const creator: Creator = { role, family: parsed.family };
  if (parsed.given) creator.given = parsed.given;
  if (parsed['dropping-particle']) creator.droppingParticle = parsed['dropping-particle'];
  if (parsed['non-dropping-particle'])
    creator.nonDroppingParticle = parsed['non-dropping-particle'];
  if (parsed.suffix) creator.suffix = parsed.suffix;
  return creator;
}

/** A creator from one string; `literal` when it names an organisation or cannot be split without losing a word. */
export function creatorFromText(raw: string, role: CreatorRole = 'author'): Creator | null {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (!text) return null;
  // Two people in one string ("A and B"), or an organisation: one name, as written.
  if (/(^|\s)(and|&)(\s|$)/i.test(text) || ORGANISATION.test(text)) return { role, literal: text };
  if (text.includes(',')) {
    const parsed = parseName(text) as ParsedName;
    return keepsEveryWord(parsed, text) ? fromParsed(role, parsed) : { role, literal: text };
  }
  const words = text.split(' ');
  if (words.length === 1) return { role, family: text };
  const suffix = words.length > 2 && SUFFIX.test(words.at(-1)!) ? words.pop() : undefined;
  const rest = words.join(' ');
  const parsed = parseName(rest) as ParsedName;
  // citation-js reads "Bo-Qiang Ma" as a family name alone; the last word is the family then.
  const named = keepsEveryWord(parsed, rest)
    ? parsed
    : { given: words.slice(0, -1).join(' '), family: words.at(-1) };
  return fromParsed(role, suffix ? { ...named, suffix } : named);
}
