/**
 * React keys for results that do not change while a streamed search merges them: a record that a
 * later provider's answer merges with (the same DOI, arXiv id or PMID) may come back under another
 * provider's id, and a new key would remount its card, losing the focus inside it. Each result keeps
 * the first key any of its identities was given, for as long as the words stay the same.
 */
import { useRef } from 'react';
import type { SearchResult } from './search-state';

function identitiesOf(result: SearchResult): string[] {
  return [
    `${result.provider}:${result.id}`,
    ...(result.doi ? [`doi:${result.doi.toLowerCase()}`] : []),
    ...(result.arxivId ? [`arxiv:${result.arxivId.replace(/v\d+$/, '')}`] : []),
    ...(result.pmid ? [`pmid:${result.pmid}`] : []),
  ];
}

export function useStableKeys(
  query: string,
  results: SearchResult[],
): (result: SearchResult) => string {
  const memory = useRef<{ query: string; keys: Map<string, string> }>({ query, keys: new Map() });
  if (memory.current.query !== query) memory.current = { query, keys: new Map() };
  const keys = memory.current.keys;
  const keyOf = (result: SearchResult): string => {
    const identities = identitiesOf(result);
    const key =
      identities.map((identity) => keys.get(identity)).find((known) => known !== undefined) ??
      identities[0]!;
    for (const identity of identities) if (!keys.has(identity)) keys.set(identity, key);
    return key;
  };
  // Known before rendering, so that two results of one page never share a key.
  const used = new Set<string>();
  const pageKeys = new Map<SearchResult, string>();
  for (const result of results) {
    let key = keyOf(result);
    if (used.has(key)) key = `${result.provider}:${result.id}`;
    used.add(key);
    pageKeys.set(result, key);
  }
  return (result) => pageKeys.get(result) ?? `${result.provider}:${result.id}`;
}
