/**
 * Which key a new resource asks for: the one it came with (an imported entry's, or one a create body
 * gives), else Better BibTeX's default made from its record (src/records/citation-key.ts). The record
 * keeps no key of its own: the resource's `citationKey` column is the one.
 */
import { baseCitationKey, firstFreeKey, isCitationKey } from '../../records/index.js';
import type { BibRecord } from '../../records/index.js';

export interface WantedKey {
  key: string;
  /** The key came with the entry (kept as it is, or suffixed when another resource holds it). */
  given: boolean;
}

/** The key a record and title ask for, and the record without it. An unusable given key is made anew. */
export function wantedKeyOf<R extends BibRecord>(values: {
  record: R;
  title: string;
}): { wanted: WantedKey; record: R; refusedKey: string | null } {
  const { citationKey, ...record } = values.record;
  const made = { key: baseCitationKey({ record, title: values.title }), given: false };
  if (citationKey === undefined) return { wanted: made, record: record as R, refusedKey: null };
  if (isCitationKey(citationKey))
    return { wanted: { key: citationKey, given: true }, record: record as R, refusedKey: null };
  return { wanted: made, record: record as R, refusedKey: citationKey };
}

/**
 * The key shown for a row saved before keys were kept, until the start-up upgrade (upgrade.ts) gives
 * it its own (which may carry a suffix this cannot know): the key it came with, else the one made.
 */
export function citationKeyUntilUpgraded(row: { title: string }, record: BibRecord): string {
  return wantedKeyOf({ record, title: row.title }).wanted.key;
}

export interface KeyRename {
  resourceId: string;
  from: string;
  to: string;
}

/**
 * The keys resources moving into a workspace must change: those the target holds (`targetKeys`,
 * lower-cased) get the first free suffix, around the target's keys and the keys the others bring.
 */
export function renamesForMove(
  moving: Array<{ id: string; citationKey: string | null }>,
  targetKeys: ReadonlySet<string>,
): KeyRename[] {
  const taken = new Set(targetKeys);
  for (const row of moving) if (row.citationKey) taken.add(row.citationKey.toLowerCase());
  return moving.flatMap((row) => {
    const from = row.citationKey;
    if (!from || !targetKeys.has(from.toLowerCase())) return [];
    const to = firstFreeKey(from, taken);
    taken.add(to.toLowerCase());
    return [{ resourceId: row.id, from, to }];
  });
}
