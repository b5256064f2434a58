/**
 * The duplicates finder, in memory: a workspace's resources (narrow columns, at most its resource
 * limit) linked by each rule of likeness.ts, and the groups they make. A resource is in one group at
 * most: resources linked through one another (A and B share a DOI, B and C a title) are one group,
 * reported under the strongest reason that links any two of them.
 */
import { identifiersDiffer, identifiersOf, likenessKey, type WorkTraits } from './likeness.js';

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

/** The groups of likely duplicates among `candidates`, strongest reason first, then in the candidates' order. */
export function duplicateGroups(candidates: Candidate[]): DuplicateGroup[] {
  const linked = new Linked(candidates.length);
  const identifiers = candidates.map(identifiersOf);
  (['doi', 'arxiv', 'pmid'] as const).forEach((kind, rank) => {
    for (const [first, ...rest] of bucketsOf(identifiers, (ids) => ids[kind]))
      for (const other of rest) linked.link(first!, other, rank);
  });
  const titleRank = DUPLICATE_REASONS.indexOf('title');
  for (const bucket of bucketsOf(candidates, likenessKey)) {
    // Each pair not yet in one set, unless their identifiers say they differ: a resource without
    // identifiers joins the first at once, so pairs are compared at length only in a bucket whose
    // members all carry some (O(n²) in the bucket: at most the workspace's resources).
    bucket.forEach((a, i) => {
      for (const b of bucket.slice(0, i)) {
        if (linked.root(a) === linked.root(b)) continue;
        if (!identifiersDiffer(identifiers[a]!, identifiers[b]!)) linked.link(b, a, titleRank);
      }
    });
  }
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
