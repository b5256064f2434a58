/**
 * A bibliographic record as a resource keeps it: CSL 1.0.2's variables under their names here
 * (vocabulary.ts), names structured with their role, dates as parts. A resource's `title`, `url`,
 * `type`, `tags` and `notes` are its own columns; everything else a citation needs is here.
 */
import type { CreatorRole, DateField, TextField } from './vocabulary.js';

/**
 * The longest title a resource keeps in its own `title` (the interface's limit). A longer title is
 * kept whole in the record's `markup.title` (markup.ts), which exports and citations use.
 */
export const TITLE_MAX = 300;

/** A person (family and given names, with particles and suffix as CSL has them) or an organisation (`literal`). */
export interface Creator {
  role: CreatorRole;
  family?: string;
  given?: string;
  /** "van" of "Ludwig van Beethoven": printed, never sorted on. */
  droppingParticle?: string;
  /** "van" of "Vincent van Gogh": part of the family name, but not sorted on by every style. */
  nonDroppingParticle?: string;
  suffix?: string;
  /** An organisation, or a name that is not split ("Beijing Zoo", "World Health Organization"). */
  literal?: string;
}

/** A date as far as it is known; `literal` when it is not a calendar date ("Spring 2004", "forthcoming"). */
export interface RecordDate {
  year?: number;
  month?: number;
  day?: number;
  /** 1–4: spring, summer, autumn, winter (CSL's `season`). */
  season?: number;
  circa?: boolean;
  /** The end of a range ("2001–2003", "Spring 1999 – Summer 2001": an end may have a season of its own). */
  end?: { year: number; month?: number; day?: number; season?: number };
  /** A range begun and not ended ("1987–"; CSL's `[[1987], [0]]`): no `end` with it. */
  openEnd?: true;
  literal?: string;
}

/**
 * The record. `arxivId` is the one field CSL has no variable for (an arXiv id without version, e.g.
 * `1706.03762`); CSL-JSON carries it as `number: "arXiv:…"` on a preprint (export.ts).
 * `arxivPrimaryClass` is its primary category (`astro-ph`, `cs.LG`) as a BibTeX entry's
 * `primaryClass` (BibLaTeX's `eprintclass`) gave it, written back there; it goes with the id.
 *
 * `untitled`: the work has no title of its own, which CSL allows (a legal case cited by its reporter,
 * a letter, an interview). The resource's `title` is then a display title made for lists and
 * pickers ("Untitled legal case", untitledTitle), which exports and citations leave out, so that the
 * work is cited as it came; giving the resource a title clears the mark.
 */
export type BibRecord = {
  creators?: Creator[];
  arxivId?: string;
  arxivPrimaryClass?: string;
  untitled?: true;
  /** CSL rich text of fields that came with it, by field (markup.ts): `{ title: 'The <i>Lancet</i>' }`. */
  markup?: Partial<Record<'title' | TextField, string>>;
  /**
   * A CSL-JSON item's variables this record has no field for (citeproc-js's `journalAbbreviation`,
   * `multi`, a tool's `key`…), kept as they came and given back by the CSL-JSON export and to citeproc.
   */
  otherVariables?: Record<string, unknown>;
} & Partial<Record<TextField, string>> &
  Partial<Record<DateField, RecordDate>>;

/**
 * The display title of a work without one: "Untitled" and its type in words ("Untitled legal case",
 * "Untitled personal communication"), never empty, as the interface's `title` must not be.
 */
export function untitledTitle(type: string | null | undefined): string {
  // CSL's hyphenated types name the kind last: `article-journal` is a journal article.
  const words = (type ?? '').split('-').reverse().join(' ').replace(/_/g, ' ').trim();
  return words ? `Untitled ${words}` : 'Untitled';
}

/** "Given Family" for people (particles and suffix in place), the literal for organisations. */
function creatorText(creator: Creator): string {
  if (creator.literal) return creator.literal;
  const family = [creator.droppingParticle, creator.nonDroppingParticle, creator.family]
    .filter(Boolean)
    .join(' ');
  const whole = [creator.given, family].filter(Boolean).join(' ');
  return creator.suffix ? `${whole}, ${creator.suffix}` : whole;
}

/** Who a record's `authors` names: its authors, else (an edited book) its editors, else whoever it names first. */
export function citedCreators(creators: readonly Creator[] = []): Creator[] {
  for (const role of ['author', 'editor'] as const) {
    const named = creators.filter((creator) => creator.role === role);
    if (named.length > 0) return named;
  }
  const first = creators[0]?.role;
  return creators.filter((creator) => creator.role === first);
}

/** The interface's `authors` (plain names), derived from the record. */
export function authorsOf(record: BibRecord): string[] {
  return citedCreators(record.creators).map(creatorText).filter(Boolean);
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` of a date with a year (what search results call `publishedDate`). */
export function isoDateOf(date: RecordDate | undefined): string | undefined {
  if (!date?.year) return undefined;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  let text = pad(date.year, 4);
  if (date.month) text += `-${pad(date.month)}`;
  if (date.month && date.day) text += `-${pad(date.day)}`;
  return text;
}

/** A date from `YYYY`, `YYYY-MM` or `YYYY-MM-DD` at the start of a text (as providers and older records give it). */
export function dateFromIso(value: unknown): RecordDate | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const match = /^\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map((part) => (part ? Number(part) : undefined));
  if (!year) return undefined;
  const date: RecordDate = { year };
  if (month && month >= 1 && month <= 12) {
    date.month = month;
    if (day && day >= 1 && day <= daysIn(year, month)) date.day = day;
  }
  return date;
}

/** Days in a month of the proleptic Gregorian calendar. */
export function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
