/**
 * Optimistic concurrency (RFC 9110 §13.1.1): an object's version as a strong ETag, and the `If-Match`
 * a change may carry. A stale `If-Match` is a 412 with the current object (errors.ts,
 * PreconditionFailedError); the check is the write's own condition (`version = any(…)` in the UPDATE
 * or DELETE), never a read before it.
 */
import { z } from 'zod';

/** ETags are per URL; the letter still says which kind of object a version is of (w: workspace, r: resource, a: annotation). */
export type VersionedKind = 'w' | 'r' | 'a';

/**
 * What a change requires of the object's version: `null` nothing (no `If-Match`, or `*`: the object
 * exists, which loading it already checked); else the versions it may have (none when every tag sent
 * is weak, of another kind, or not ours: such a request is always a 412).
 */
export type ExpectedVersions = number[] | null;

export function versionEtag(kind: VersionedKind, version: number): string {
  return `"${kind}${version}"`;
}

const ENTITY_TAG = /\s*(W\/)?"([\x21\x23-\x7e]*)"\s*/y;

/** The entity tags of an `If-Match` value: `*`, or a comma-separated list of (possibly weak) quoted tags; null when malformed. */
function entityTagsOf(
  value: string,
): { any: true } | { tags: Array<{ weak: boolean; opaque: string }> } | null {
  if (value.trim() === '*') return { any: true };
  const tags: Array<{ weak: boolean; opaque: string }> = [];
  let at = 0;
  while (at < value.length) {
    ENTITY_TAG.lastIndex = at;
    const match = ENTITY_TAG.exec(value);
    if (!match) return null;
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
    at = ENTITY_TAG.lastIndex;
    if (at < value.length) {
      if (value[at] !== ',') return null;
      at += 1;
    }
  }
  return tags.length > 0 ? { tags } : null;
}

const IF_MATCH_MAX_LENGTH = 1000;

/** The `If-Match` request header, as the route schemas declare (and the OpenAPI document shows) it. */
export const IfMatchHeader = z
  .string()
  .max(IF_MATCH_MAX_LENGTH)
  .refine(
    (value) => entityTagsOf(value) !== null,
    'must be * or a list of quoted entity tags, e.g. "r3"',
  )
  .optional()
  .describe(
    'Optimistic concurrency: the ETag of the version this change was made ' +
      'from (e.g. `"r3"`, as a GET, create or update answered it). When the ' +
      'object has changed since, nothing is written and the answer is 412 with ' +
      'the current object in `current`. `*` matches any existing object; ' +
      'without the header the change is made whatever the version.',
  );

/** The versions `If-Match` accepts for an object of `kind` (strong comparison: a weak tag matches nothing). */
export function expectedVersions(
  kind: VersionedKind,
  ifMatch: string | undefined,
): ExpectedVersions {
  if (ifMatch === undefined) return null;
  const parsed = entityTagsOf(ifMatch);
  if (!parsed || 'any' in parsed) return null;
  const versions: number[] = [];
  for (const tag of parsed.tags) {
    const match = !tag.weak && new RegExp(`^${kind}([1-9][0-9]{0,8})$`).exec(tag.opaque);
    if (match) versions.push(Number(match[1]));
  }
  return versions;
}

/** Whether a version satisfies what was expected of it (for a check made on a row the transaction has locked). */
export function versionMatches(expected: ExpectedVersions, version: number): boolean {
  return expected === null || expected.includes(version);
}
