/**
 * Folds records that are the same work into one: same DOI (case-insensitive), same arXiv id (any
 * version), same PMID, or the same normalised title with the same year. Matching is transitive (a
 * Semantic Scholar record carrying both an arXiv id and a journal DOI joins the preprint and the article).
 * The merged record keeps the richest fields and lists its `sources`.
 */
import { normaliseTitle } from './text.js';
import { DETAIL_TEXT_FIELDS, PROVIDER_IDS } from './types.js';
import type { BibliographicDetails, ProviderId, SearchRecord } from './types.js';

/**
 * Whose id, title and link a merged record shows: the DOI registry first (a DOI is the most widely
 * resolvable id), then the indexes that own their records, then the aggregators.
 */
const MERGE_PRIORITY: readonly ProviderId[] = [
  'crossref',
  'pubmed',
  'arxiv',
  'openalex',
  'semanticscholar',
  'zenodo',
  'youtube',
];

/** Providers whose names come in parts (family, given, suffix) rather than as strings read here. */
const STRUCTURED_NAMES: ReadonlySet<ProviderId> = new Set(['crossref', 'pubmed']);

/** What a version's venue says of it: taken from the published version when there is one. */
const VENUE_FIELDS = [
  'type',
  ...DETAIL_TEXT_FIELDS.filter((field) => field !== 'language'),
] as const;

/** Titles shorter than this ("Introduction", "Editorial") are too generic to identify a work. */
const MIN_TITLE_KEY_LENGTH = 16;

/**
 * Merging for one search. A record's title key (its normalised title) depends on that record alone, so
 * `prepare` works it out as soon as its provider answers; `merge` reuses it for those same records.
 */
export interface RecordMerger {
  prepare(records: SearchRecord[]): void;
  merge(records: SearchRecord[]): SearchRecord[];
}

export function createRecordMerger(): RecordMerger {
  const titleKeys = new WeakMap<SearchRecord, string | null>();
  const titleKey = (record: SearchRecord): string | null => {
    let key = titleKeys.get(record);
    if (key === undefined) {
      key = titleKeyOf(record);
      titleKeys.set(record, key);
    }
    return key;
  };
  return {
    prepare: (records) => {
      for (const record of records) titleKey(record);
    },
    merge: (records) => mergeWithTitleKeys(records, titleKey),
  };
}

export function mergeRecords(records: SearchRecord[]): SearchRecord[] {
  return mergeWithTitleKeys(records, titleKeyOf);
}

/**
 * Which records are one work, by the rules `mergeRecords` folds them by: the indexes of each group, in
 * order of first appearance (discover counts in how many lists a work appears).
 */
export function duplicateGroups(records: SearchRecord[]): number[][] {
  return groupIndexes(records, titleKeyOf);
}

function mergeWithTitleKeys(
  records: SearchRecord[],
  titleKey: (record: SearchRecord) => string | null,
): SearchRecord[] {
  return groupIndexes(records, titleKey).map((indexes) => {
    const group = indexes.map((index) => records[index] as SearchRecord);
    return group.length === 1 && group[0] ? group[0] : combine(group);
  });
}

function groupIndexes(
  records: SearchRecord[],
  titleKey: (record: SearchRecord) => string | null,
): number[][] {
  const parent = records.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] ?? root;
    let node = index;
    while (parent[node] !== root) {
      const next = parent[node] ?? root;
      parent[node] = root;
      node = next;
    }
    return root;
  };
  const union = (a: number, b: number): void => {
    const rootA = find(a);
    const rootB = find(b);
    // The earlier record stays the root, so groups come out in order of first appearance.
    if (rootA < rootB) parent[rootB] = rootA;
    else if (rootB < rootA) parent[rootA] = rootB;
  };

  const firstByKey = new Map<string, number>();
  const meet = (key: string, index: number): void => {
    const first = firstByKey.get(key);
    if (first === undefined) {
      firstByKey.set(key, index);
      return;
    }
    const other = records[first];
    const record = records[index];
    if (key.startsWith('title:') && other && record && conflictingDois(other, record)) return;
    union(first, index);
  };
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as SearchRecord;
    meet(`id:${record.id}`, index);
    if (record.doi) meet(`doi:${record.doi.toLowerCase()}`, index);
    if (record.arxivId) meet(`arxiv:${record.arxivId.toLowerCase()}`, index);
    if (record.pmid) meet(`pmid:${record.pmid}`, index);
    const key = titleKey(record);
    if (key) meet(key, index);
  }

  const groups = new Map<number, number[]>();
  records.forEach((_, index) => {
    const root = find(index);
    const group = groups.get(root);
    if (group) group.push(index);
    else groups.set(root, [index]);
  });
  return [...groups.values()];
}

/** `title:<year>:<normalised title>`, or null when the title is too generic or the year unknown. */
function titleKeyOf(record: SearchRecord): string | null {
  if (record.year === null || record.provider === 'youtube') return null;
  const title = normaliseTitle(record.title);
  return title.length >= MIN_TITLE_KEY_LENGTH && title.includes(' ')
    ? `title:${record.year}:${title}`
    : null;
}

/**
 * One provider listing two records with equal titles but different DOIs means two works (a dataset's
 * versions, a journal's recurring column), so the title alone must not merge them.
 */
function conflictingDois(a: SearchRecord, b: SearchRecord): boolean {
  return (
    !!a.doi && !!b.doi && a.doi.toLowerCase() !== b.doi.toLowerCase() && a.provider === b.provider
  );
}

function priorityOf(record: SearchRecord): number {
  return MERGE_PRIORITY.indexOf(record.provider);
}

function bestRank(record: SearchRecord): number {
  const ranks = Object.values(record.ranks ?? {});
  return ranks.length > 0 ? Math.min(...ranks) : Number.MAX_SAFE_INTEGER;
}

function combine(group: SearchRecord[]): SearchRecord {
  const ordered = [...group].sort(
    (a, b) => priorityOf(a) - priorityOf(b) || bestRank(a) - bestRank(b),
  );
  const primary = ordered[0] as SearchRecord;
  const longest = (pick: (record: SearchRecord) => string): string =>
    ordered.reduce((best, record) => (pick(record).length > best.length ? pick(record) : best), '');
  const first = <T>(pick: (record: SearchRecord) => T | undefined): T | undefined => {
    for (const record of ordered) {
      const value = pick(record);
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  };

  const authors = ordered.reduce<string[]>(
    (best, record) => (record.authors.length > best.length ? record.authors : best),
    [],
  );
  const known = ordered.filter((record) => record.citationsKnown);
  const publishedDate = mergedDate(primary, ordered);
  const sourceSet = new Set(ordered.flatMap((record) => record.sources));
  const ranks: Partial<Record<ProviderId, number>> = {};
  for (const record of ordered) {
    for (const [provider, rank] of Object.entries(record.ranks ?? {}) as Array<
      [ProviderId, number]
    >) {
      ranks[provider] = Math.min(ranks[provider] ?? rank, rank);
    }
  }
  // A journal DOI says more than the arXiv DataCite DOI of the preprint.
  const doi =
    first((record) =>
      record.doi && !record.doi.startsWith('10.48550/') ? record.doi : undefined,
    ) ?? first((record) => record.doi);
  const merged: SearchRecord = {
    id: primary.id,
    provider: primary.provider,
    nativeId: primary.nativeId,
    title: primary.title || longest((record) => record.title),
    authors,
    abstract: longest((record) => record.abstract),
    url: primary.url || (first((record) => record.url) ?? ''),
    publishedDate,
    year: publishedDate
      ? Number(publishedDate.slice(0, 4))
      : (first((record) => record.year ?? undefined) ?? null),
    citations: known.reduce((max, record) => Math.max(max, record.citations), 0),
    citationsKnown: known.length > 0,
    score: 0,
    sources: PROVIDER_IDS.filter((id) => sourceSet.has(id)),
    ranks,
  };
  const arxivId = first((record) => record.arxivId);
  const pmid = first((record) => record.pmid);
  const openalexId = first((record) => record.openalexId);
  const pdfUrl = first((record) => record.pdfUrl);
  const venue = first((record) => record.venue);
  const type = first((record) => record.type);
  const details = mergedDetails(ordered);
  return {
    ...merged,
    ...(doi ? { doi } : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(pmid ? { pmid } : {}),
    ...(openalexId ? { openalexId } : {}),
    ...(pdfUrl ? { pdfUrl } : {}),
    ...(venue ? { venue } : {}),
    ...(type ? { type } : {}),
    ...(details ? { details } : {}),
  };
}

/**
 * The bibliographic details of one work that several providers returned, from records in merge
 * priority order:
 * - names from the first record whose provider gives them in parts (Crossref, PubMed); else the
 *   longest list read from strings (as `authors`);
 * - every other field from the first record that has it, the published version first: when a
 *   record names a container (journal, proceedings, book), its type, venue, volume, issue, pages
 *   and publisher speak for the work, and a preprint's (arXiv's, a repository's) are left out, so
 *   that a journal article found beside its preprint is not cited as published by arXiv; the
 *   language and issue date from any record.
 */
function mergedDetails(ordered: SearchRecord[]): BibliographicDetails | undefined {
  const withDetails = ordered.filter(
    (record): record is SearchRecord & { details: BibliographicDetails } => !!record.details,
  );
  if (withDetails.length === 0) return undefined;
  const published = withDetails.find((record) => record.details.containerTitle);
  const sources = published
    ? [
        published,
        ...withDetails.filter(
          (record) => record !== published && record.details.type !== 'preprint',
        ),
      ]
    : withDetails;
  const details: BibliographicDetails = {};
  const firstOf = <K extends keyof BibliographicDetails>(
    records: ReadonlyArray<{ details: BibliographicDetails }>,
    field: K,
  ) => records.map((record) => record.details[field]).find((value) => value !== undefined);
  for (const field of VENUE_FIELDS) {
    const value = firstOf(sources, field);
    if (value !== undefined) Object.assign(details, { [field]: value });
  }
  // The work's language and issue date are every version's.
  for (const field of ['language', 'issued'] as const) {
    const value = firstOf(withDetails, field);
    if (value !== undefined) Object.assign(details, { [field]: value });
  }
  const named = withDetails.filter((record) => record.details.creators?.length);
  const structured = named.find((record) => STRUCTURED_NAMES.has(record.provider));
  const creators =
    structured?.details.creators ??
    named.reduce<BibliographicDetails['creators']>(
      (best, record) =>
        (record.details.creators?.length ?? 0) > (best?.length ?? 0)
          ? record.details.creators
          : best,
      undefined,
    );
  if (creators) return { creators, ...details };
  return Object.keys(details).length > 0 ? details : undefined;
}

/**
 * The shown record's date, refined by a more precise one that agrees with it (`2017` → `2017-06-01`).
 * Other versions' dates (the preprint of an article) are used only when the shown record has none.
 */
function mergedDate(primary: SearchRecord, ordered: SearchRecord[]): string | null {
  const dates = ordered
    .map((record) => record.publishedDate)
    .filter((date): date is string => !!date);
  const base = primary.publishedDate ?? dates[0] ?? null;
  if (!base) return null;
  return dates.reduce(
    (best, date) => (date.startsWith(best) && date.length > best.length ? date : best),
    base,
  );
}
