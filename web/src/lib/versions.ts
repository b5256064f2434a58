/**
 * Optimistic concurrency (docs/api.md, Editing at the same time): an edit is sent with `If-Match` naming the
 * version the user started from, so the API refuses it (412, with the version saved now) when someone
 * else changed the object meanwhile, instead of one edit silently overwriting the other.
 */

/** The kind of object a version is of, as its ETag spells it: workspace, resource, annotation. */
type VersionKind = 'w' | 'r' | 'a';

/** The `If-Match` header of a change made from `version` (the ETag the API gave that version). */
export function ifMatch(kind: VersionKind, version: number): { 'if-match': string } {
  return { 'if-match': `"${kind}${version}"` };
}
