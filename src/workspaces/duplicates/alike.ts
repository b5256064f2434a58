/**
 * Adding by hand: the resource of the workspace a new one would be a likely duplicate of by its title
 * (likeness.ts), read under the workspace's lock so that two adds of one work cannot both pass.
 */
import type { Tx } from '../../platform/db/client.js';
import type { FindAlike, NewResourceRow } from '../store.js';
import { alikeByTitle, likenessKey, traitsOf } from './likeness.js';
import { resourceTraitsOfYear } from './store.js';

/** What `insertResourceIfRoom` asks before it inserts `values`: the id of one alike, or null. */
export function alikeOf(values: NewResourceRow): FindAlike | undefined {
  const traits = traitsOf(values);
  if (!likenessKey(traits)) return undefined;
  // Only resources of the same year (or, without one, of none) can be alike: read through the year index.
  return async (tx: Tx) =>
    alikeByTitle(traits, await resourceTraitsOfYear(tx, values.workspaceId, traits.year))?.id ??
    null;
}
