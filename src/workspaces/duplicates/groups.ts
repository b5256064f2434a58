/**
 * The duplicates finder, in memory: a workspace's resources (narrow columns, at most its resource
 * limit) linked by each rule of likeness.ts, and the groups they make. A resource is in one group at
 * most: resources linked through one another (A and B share a DOI, B and C a title) are one group,
 * reported under the strongest reason that links any two of them.
 */
import { identifiersOf, likenessKey, type WorkTraits } from './likeness.js';

/** Why resources are grouped, strongest first. */
export const DUPLICATE_REASONS = ['doi', 'arxiv', 'pmid', 'title'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

export interface Candidate extends WorkTraits {
  id: string;
}

export interface DuplicateGroup {
  reason: DuplicateReason;
  /** In the order given (the finder gives oldest first). */
  ids: string[];
}

/** Union-find over indexes, each root remembering the strongest reason that joined its set. */
class Linked {
  private readonly parent: number[];
  readonly reason = new Map<number, number>();
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, index) => index);
  }
  root(index: number): number {
    let at = index;
    while (this.parent[at] !== at) {
      this.parent[at] = this.parent[this.parent[at]!]!;
      at = this.parent[at]!;
    }
    return at;
  }
  link(a: number, b: number, reason: number): void {
    const [rootA, rootB] = [this.root(a), this.root(b)];
    const strongest = Math.min(
      reason,
      this.reason.get(rootA) ?? Infinity,
      this.reason.get(rootB) ?? Infinity,
    );
    if (rootA !== rootB) this.parent[rootB] = rootA;
    this.reason.set(rootA, strongest);
  }
}

/** Indexes by a key each candidate may have (null: none). */
function bucketsOf<T>(items: T[], keyOf: (item: T) => string | null | undefined): number[][] {
  const buckets = new Map<string, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (!key) return;
    const bucket = buckets.get(key);
    if (bucket) bucket.push(index);
    else buckets.set(key, [index]);
  });
  return [...buckets.values()].filter((bucket) => bucket.length > 1);
}

const KINDS = ['doi', 'arxiv', 'pmid'] as const;
type Identifiers = ReturnType<typeof identifiersOf>;

/**
 * Links the members of one title bucket that are alike: two are, unless both carry an identifier of
 * one kind and those differ (identifiersDiffer). Comparing every pair would be O(n²) in the bucket
 * (10,000 resources of one title with distinct DOIs: 50 million comparisons on the request thread);
 * instead, for each pair of identifier kind-sets (at most 8 × 8), members are classed by their values
 * of the kinds both sets hold, and a class holding members of both sets is linked whole: the same
 * sets as comparing every pair, in time linear in the bucket.
 */
function linkAlikeByTitle(
  bucket: number[],
  identifiers: Identifiers[],
  link: (a: number, b: number) => void,
): void {
  const byKinds = new Map<string, number[]>();
  for (const index of bucket) {
    const kinds = KINDS.filter((kind) => identifiers[index]![kind] !== undefined).join(',');
    const members = byKinds.get(kinds);
    if (members) members.push(index);
    else byKinds.set(kinds, [index]);
  }
  const sets = [...byKinds.entries()].map(([kinds, members]) => ({
    kinds: kinds ? kinds.split(',') : [],
    members,
  }));
  sets.forEach((left, i) => {
    for (const right of sets.slice(i)) {
      const shared = left.kinds.filter((kind) => right.kinds.includes(kind)) as Array<
        (typeof KINDS)[number]
      >;
      const classes = new Map<string, { left: boolean; right: boolean; members: number[] }>();
      const place = (index: number, side: 'left' | 'right') => {
        const key = JSON.stringify(shared.map((kind) => identifiers[index]![kind]));
        const entry = classes.get(key) ?? { left: false, right: false, members: [] };
        entry[side] = true;
        entry.members.push(index);
        classes.set(key, entry);
      };
      left.members.forEach((index) => place(index, 'left'));
      if (right !== left) right.members.forEach((index) => place(index, 'right'));
      for (const entry of classes.values()) {
        // Within one kind-set, a class is members that agree on every identifier they carry.
        const both = right === left ? entry.members.length > 1 : entry.left && entry.right;
        if (!both) continue;
        const [first, ...rest] = [...entry.members].sort((a, b) => a - b);
        for (const other of rest) link(first!, other);
      }
    }
  });
}

/** The groups of likely duplicates among `candidates`, strongest reason first, then in the candidates' order. */
export function duplicateGroups(candidates: Candidate[]): DuplicateGroup[] {
  const linked = new Linked(candidates.length);
  const identifiers = candidates.map(identifiersOf);
  (['doi', 'arxiv', 'pmid'] as const).forEach((kind, rank) => {
    for (const [first, ...rest] of bucketsOf(identifiers, (ids) => ids[kind]))
      for (const other of rest) linked.link(first!, other, rank);
  });
  const titleRank = DUPLICATE_REASONS.indexOf('title');
  for (const bucket of bucketsOf(candidates, likenessKey))
    linkAlikeByTitle(bucket, identifiers, (a, b) => linked.link(a, b, titleRank));
  const members = new Map<number, number[]>();
  candidates.forEach((_, index) => {
    const root = linked.root(index);
    const set = members.get(root);
    if (set) set.push(index);
    else members.set(root, [index]);
  });
  return [...members.entries()]
    .filter(([, indexes]) => indexes.length > 1)
    .map(([root, indexes]) => ({
      rank: linked.reason.get(root)!,
      first: indexes[0]!,
      ids: indexes.map((index) => candidates[index]!.id),
    }))
    .sort((a, b) => a.rank - b.rank || a.first - b.first)
    .map(({ rank, ids }) => ({ reason: DUPLICATE_REASONS[rank]!, ids }));
}
