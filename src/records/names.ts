/**
 * A name given as one string ("Grace Hopper", "Hopper, Grace", "van Gogh, Vincent", "World Health
 * Organization") as a structured creator. Used where only strings exist: resources saved before
 * records were structured, providers that give names as text, a person typing a name. Imports and
 * providers with structured names keep theirs.
 */
import type { Creator } from './record.js';
import type { CreatorRole } from './vocabulary.js';

/** Generational suffixes written after a name without a comma ("Martin Luther King Jr."). */
const SUFFIX = /^(?:jr\.?|sr\.?|ii|iii|iv|v|vi)$/i;

/**
 * Words that make a name an organisation's: kept whole (`literal`), never split into family and
 * given ("Beijing Zoo" is not Zoo, B.).
 */
const ORGANISATION = new RegExp(
  `\\b(?:${[
    'academy',
    'agency',
    'association',
    'bureau',
    'center',
    'centre',
    'collaboration',
    'college',
    'commission',
    'committee',
    'company',
    'consortium',
    'corporation',
    'council',
    'department',
    'foundation',
    'group',
    'inc',
    'initiative',
    'institute',
    'laboratory',
    'league',
    'ltd',
    'ministry',
    'museum',
    'network',
    'office',
    'organi[sz]ation',
    'partnership',
    'project',
    'society',
    'team',
    'trust',
    'university',
    'working party',
    'zoo',
  ].join('|')})\\b`,
  'i',
);

/** Whether a name names an organisation (a word such as "council", "university", "institute"). */
export function namesAnOrganisation(text: string): boolean {
  return ORGANISATION.test(text);
}

interface ParsedName {
  given?: string;
  family?: string;
  suffix?: string;
  nonDroppingParticle?: string;
}

/**
 * BibTeX's rule for a name's parts (Oren Patashnik, "Designing BibTeX styles"): the lower-case words
 * before the last name are its "von" part, a particle ("van der Berg", "de la Fontaine"); the family
 * name is what follows them. Applied to the words before a comma, or to the whole name without one.
 */
function splitParticle(words: string[]): { particle?: string; family: string } {
  let first = 0;
  while (first < words.length - 1 && /^\p{Ll}/u.test(words[first]!)) first += 1;
  return first > 0
    ? { particle: words.slice(0, first).join(' '), family: words.slice(first).join(' ') }
    : { family: words.join(' ') };
}

/** "Family, Given" or "von Family, Jr., Given", BibTeX's comma forms. */
function parseInverted(text: string): ParsedName | null {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > 3 || parts.some((part) => !part)) return null;
  const { particle, family } = splitParticle(parts[0]!.split(' '));
  const name: ParsedName = { family };
  if (particle) name.nonDroppingParticle = particle;
  if (parts.length === 3) {
    name.suffix = parts[1];
    name.given = parts[2];
  } else if (parts.length === 2) {
    if (SUFFIX.test(parts[1]!)) name.suffix = parts[1];
    else name.given = parts[1];
  }
  return name;
}

/** "Given von Family": the family name is the last word, with the lower-case words before it. */
function parseDirect(words: string[]): ParsedName {
  const family = words.at(-1)!;
  let start = words.length - 1;
  while (start > 1 && /^\p{Ll}/u.test(words[start - 1]!)) start -= 1;
  const name: ParsedName = { family };
  if (start < words.length - 1) name.nonDroppingParticle = words.slice(start, -1).join(' ');
  const given = words.slice(0, start).join(' ');
  if (given) name.given = given;
  return name;
}

function fromParsed(role: CreatorRole, parsed: ParsedName): Creator {
  const creator: Creator = { role, family: parsed.family };
  if (parsed.given) creator.given = parsed.given;
  if (parsed.nonDroppingParticle) creator.nonDroppingParticle = parsed.nonDroppingParticle;
  if (parsed.suffix) creator.suffix = parsed.suffix;
  return creator;
}

/**
 * A person from names already in their parts (RIS's `Family, Given, Suffix`): the lower-case words
 * that open the family part are its particle ("van der Berg"); either part may be missing.
 */
export function creatorFromParts(
  parts: { family?: string; given?: string; suffix?: string },
  role: CreatorRole = 'author',
): Creator | null {
  const [family, given, suffix] = [parts.family, parts.given, parts.suffix].map((part) =>
    part?.replace(/\s+/g, ' ').trim(),
  );
  if (!family && !given) return null;
  const creator: Creator = { role };
  if (family) {
    const split = splitParticle(family.split(' '));
    creator.family = split.family;
    if (split.particle) creator.nonDroppingParticle = split.particle;
  }
  if (given) creator.given = given;
  if (suffix) creator.suffix = suffix;
  return creator;
}

/** A creator from one string; `literal` when it names an organisation or cannot be split. */
export function creatorFromText(raw: string, role: CreatorRole = 'author'): Creator | null {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (!text) return null;
  // Two people in one string ("A and B"), or an organisation: one name, as written.
  if (/(^|\s)(and|&)(\s|$)/i.test(text) || ORGANISATION.test(text)) return { role, literal: text };
  if (text.includes(',')) {
    const parsed = parseInverted(text);
    return parsed ? fromParsed(role, parsed) : { role, literal: text };
  }
  const words = text.split(' ');
  if (words.length === 1) return { role, family: text };
  const suffix = words.length > 2 && SUFFIX.test(words.at(-1)!) ? words.pop() : undefined;
  const parsed = parseDirect(words);
  return fromParsed(role, suffix ? { ...parsed, suffix } : parsed);
}
