/**
 * Co-citation suggestions for a workspace: works that several of its resources cite or are cited by.
 * At most `MAX_SOURCES` resources are looked at (the newest that a graph provider can identify), each
 * through its references and citations from the same cached calls as `GET /api/works/{id}/…` make
 * (50 neighbours per provider): at most 2 × 2 × MAX_SOURCES provider answers, 3 × 2 × MAX_SOURCES
 * outbound requests when nothing is cached (OpenAlex reads the work, then its neighbours). A work counts
 * once per resource however it is connected; works the workspace already holds are left out.
 */
import {
  duplicateGroups,
  mergeRecords,
  type ProviderStatus,
  type SearchRecord,
} from '../search/index.js';
import { findRelated, type RelatedRequest } from './related.js';
import { graphIdsOfSaved, hasGraphIds, type GraphIds } from './work-ids.js';
import type { SavedWorkIds } from '../workspaces/index.js';

const MAX_SOURCES = 8;
/** Neighbours asked of each provider per resource and relation (the first, cheaper window). */
const NEIGHBOURS_PER_PROVIDER = 50;
/** A suggestion is connected to at least this many of the workspace's resources. */
const MIN_CONNECTIONS = 2;

export interface Suggestion {
  record: SearchRecord;
  /** The workspace's resources that cite it or that it cites, newest first. */
  resourceIds: string[];
}

export interface SuggestionsAnswer {
  suggestions: Suggestion[];
  /** The resources looked at (≤ MAX_SOURCES). */
  looked: number;
  providers: ProviderStatus[];
}

type Lists = Array<{ resourceId: string; records: SearchRecord[] }>;

/** Works in at least `MIN_CONNECTIONS` lists, by how many (then by citations), without those `isOwn` says the workspace holds. */
export function rankCoCited(lists: Lists, isOwn: (record: SearchRecord) => boolean): Suggestion[] {
  const all = lists.flatMap((list) =>
    list.records.map((record) => ({ record, resourceId: list.resourceId })),
  );
  const records = all.map((entry) => entry.record);
  const suggestions = duplicateGroups(records).flatMap((group) => {
    const members = group.map(
      (index) => all[index] as { record: SearchRecord; resourceId: string },
    );
    const resourceIds = [...new Set(members.map((member) => member.resourceId))];
    if (resourceIds.length < MIN_CONNECTIONS) return [];
    const [record] = mergeRecords(members.map((member) => member.record));
    if (!record || members.some((member) => isOwn(member.record))) return [];
    return [{ record, resourceIds }];
  });
  return suggestions.sort(
    (a, b) =>
      b.resourceIds.length - a.resourceIds.length ||
      b.record.citations - a.record.citations ||
      a.record.title.localeCompare(b.record.title),
  );
}

/** What `isOwn` checks: a record sharing a DOI, arXiv id, PMID or graph id with one of the workspace's resources. */
function ownWorkMatcher(saved: GraphIds[]): (record: SearchRecord) => boolean {
  const keys = new Set(
    saved.flatMap((ids) => [
      ids.doi && `doi:${ids.doi.toLowerCase()}`,
      ids.arxivId && `arxiv:${ids.arxivId.toLowerCase()}`,
      ids.pmid && `pmid:${ids.pmid}`,
      ids.openalexId && `openalex:${ids.openalexId.toUpperCase()}`,
      ids.semanticScholarId && `semanticscholar:${ids.semanticScholarId}`,
    ]),
  );
  return (record) =>
    keys.has(`${record.provider}:${record.nativeId}`) ||
    (record.doi !== undefined && keys.has(`doi:${record.doi.toLowerCase()}`)) ||
    (record.arxivId !== undefined && keys.has(`arxiv:${record.arxivId.toLowerCase()}`)) ||
    (record.pmid !== undefined && keys.has(`pmid:${record.pmid}`));
}

/** Per provider, over all the calls: `ok` only when every call was; else the first other status seen. */
function combineStatuses(all: ProviderStatus[][]): ProviderStatus[] {
  const byId = new Map<ProviderStatus['id'], ProviderStatus>();
  for (const status of all.flat()) {
    const seen = byId.get(status.id);
    if (!seen)
      byId.set(status.id, {
        id: status.id,
        status: status.status,
        count: status.count,
        took: status.took,
      });
    else
      byId.set(status.id, {
        id: status.id,
        status: seen.status === 'ok' ? status.status : seen.status,
        count: seen.count + status.count,
        took: Math.max(seen.took, status.took),
      });
  }
  return [...byId.values()];
}

export async function suggestForWorkspace(
  resources: SavedWorkIds[],
  ask: Omit<RelatedRequest, 'ids' | 'relation' | 'perProviderLimit'>,
): Promise<SuggestionsAnswer> {
  const identified = resources
    .map((saved) => ({ id: saved.id, ids: graphIdsOfSaved(saved) }))
    .filter((saved) => hasGraphIds(saved.ids));
  const sources = identified.slice(0, MAX_SOURCES);
  const answers = await Promise.all(
    sources.flatMap((source) =>
      (['references', 'citations'] as const).map(async (relation) => ({
        resourceId: source.id,
        ...(await findRelated({
          ...ask,
          ids: source.ids,
          relation,
          perProviderLimit: NEIGHBOURS_PER_PROVIDER,
        })),
      })),
    ),
  );
  const isOwn = ownWorkMatcher(identified.map((saved) => saved.ids));
  return {
    suggestions: rankCoCited(answers, isOwn),
    looked: sources.length,
    providers: combineStatuses(answers.map((answer) => answer.providers)),
  };
}
