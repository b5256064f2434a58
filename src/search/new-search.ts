/**
 * Whether a search is a new one for analytics: the first time whoever asks searched these words within
 * the provider cache's lifetime. A re-sort, another page or another choice of sources for the same
 * words is the same search, as the user sees it; it is recorded once. A key per requester and query
 * in the platform cache (memory, or Redis shared by every process) remembers it.
 */
import { createHash } from 'node:crypto';
import type { Cache } from '../platform/cache.js';

const KEY_VERSION = 'v1';

/** The words as analytics groups them (lower-cased, whitespace folded). */
function normalizedWords(query: string): string {
  return query.toLowerCase().replace(/\s+/g, ' ').trim();
}

function searchedKey(requester: string, query: string): string {
  const digest = createHash('sha256')
    .update(`${requester}\u0000${normalizedWords(query)}`)
    .digest('base64url');
  return `searched:${KEY_VERSION}:${digest}`;
}

/**
 * True the first time `requester` searches `query` within `ttlSeconds`, and remembers it. A cache that
 * fails answers true: a search recorded twice is better than one lost.
 */
export async function isNewSearch(
  cache: Cache,
  requester: string,
  query: string,
  ttlSeconds: number,
): Promise<boolean> {
  const key = searchedKey(requester, query);
  try {
    if ((await cache.get(key)) !== null) return false;
    await cache.set(key, '1', ttlSeconds);
  } catch {
    return true;
  }
  return true;
}
