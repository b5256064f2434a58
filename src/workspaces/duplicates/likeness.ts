/**
 * When two resources are likely the same work (Zotero's duplicates rule, as the duplicates finder,
 * an import and adding by hand all judge it): the same DOI (any case), arXiv id or PMID; or the same
 * title once accents, case and punctuation are folded, with the same year (or no year on either) and
 * the same first author's family name, folded alike (or no author on either) — unless both carry a
 * DOI, an arXiv id or a PMID and those differ (two editions, a comment and its reply).
 */
import type { BibRecord } from '../../records/index.js';
import { normaliseArxivId, normaliseDoi } from '../resources/work-key.js';

/** What a resource is judged by: narrow columns, read for a whole workspace at once. */
export interface WorkTraits {
  title: string;
  year: number | null;
  /** The first author's family name (an organisation's whole name), as the `author_sort` column has it. */
  firstFamily: string | null;
  doi: string | null;
  arxivId: string | null;
  pmid: string | null;
}

/** Letters that carry no combining mark to drop (`ł` is not `l` + a mark): written as readers fold them. */
const LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lower case, accents and punctuation gone, words single-spaced: `The DNA of École!` → `the dna of ecole`. */
function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => LETTERS[letter] ?? letter)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The title key: folded title, year and first author's family name; null for a title with no letter
 * or digit. An absent year or author is part of the key, so it matches only another absent one.
 */
export function likenessKey(
  traits: Pick<WorkTraits, 'title' | 'year' | 'firstFamily'>,
): string | null {
  const title = foldText(traits.title);
  if (!title) return null;
  const family = traits.firstFamily ? foldText(traits.firstFamily) : '';
  return `${title}|${traits.year ?? ''}|${family}`;
}

/** The record's first author (else its first creator of any role), as `author_sort` reads it. */
function firstFamilyOf(record: BibRecord): string | null {
  const creators = record.creators ?? [];
  const first = creators.find((creator) => creator.role === 'author') ?? creators[0];
  return first?.family ?? first?.literal ?? null;
}

/** A resource's traits from its row's columns and record. */
export function traitsOf(row: {
  title: string;
  year?: number | null;
  record: BibRecord;
}): WorkTraits {
  return {
    title: row.title,
    year: row.year ?? row.record.issued?.year ?? null,
    firstFamily: firstFamilyOf(row.record),
    doi: row.record.doi ?? null,
    arxivId: row.record.arxivId ?? null,
    pmid: row.record.pmid ?? null,
  };
}

/** The identifiers compared, each normalised (DOIs lower-cased, arXiv ids without version, PMIDs as numbers). */
export function identifiersOf(traits: WorkTraits): { doi?: string; arxiv?: string; pmid?: string } {
  const doi = traits.doi ? normaliseDoi(traits.doi) : null;
  const arxiv = traits.arxivId ? normaliseArxivId(traits.arxivId) : null;
  const pmid =
    traits.pmid && /^\s*\d{1,9}\s*$/.test(traits.pmid) ? String(Number(traits.pmid)) : null;
  return {
    ...(doi ? { doi } : {}),
    ...(arxiv ? { arxiv } : {}),
    ...(pmid ? { pmid } : {}),
  };
}

type Identifiers = ReturnType<typeof identifiersOf>;

/** Whether two works alike by title are still different ones: both carry an identifier of one kind, and they differ. */
function identifiersDiffer(a: Identifiers, b: Identifiers): boolean {
  return (['doi', 'arxiv', 'pmid'] as const).some(
    (kind) => a[kind] !== undefined && b[kind] !== undefined && a[kind] !== b[kind],
  );
}

/** The first of `known` that `incoming` is likely the same work as by its title (same key, no differing identifier). */
export function alikeByTitle<T extends WorkTraits>(
  incoming: WorkTraits,
  known: Iterable<T>,
): T | null {
  const key = likenessKey(incoming);
  if (!key) return null;
  const ids = identifiersOf(incoming);
  for (const candidate of known) {
    if (likenessKey(candidate) === key && !identifiersDiffer(ids, identifiersOf(candidate)))
      return candidate;
  }
  return null;
}
