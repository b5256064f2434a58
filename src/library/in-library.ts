/**
 * "Already in your library" for works found elsewhere (provider search results): where each one is
 * among the workspaces a user may read, by the same work keys as adding a resource uses
 * (workspaces' work-key.ts), in one query that the unique index on (workspace_id, work_key) answers.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { readableWorkspaces, workKeyOf, type WorkIdentifiers } from '../workspaces/index.js';

export interface LibraryPlace {
  workspaceId: string;
  workspaceName: string;
  resourceId: string;
}

/**
 * The keys a work may have been saved under. Adding keys a work by its first identifier (DOI, else arXiv
 * id, PMID, URL, search id); a provider's record may know more identifiers than the one it was saved
 * with (a DOI found for a preprint saved by its arXiv id), so each identifier's own key counts too.
 */
export function candidateKeys(work: WorkIdentifiers): string[] {
  const keys = [
    workKeyOf(work),
    workKeyOf({ doi: work.doi }),
    workKeyOf({ arxivId: work.arxivId }),
    workKeyOf({ pmid: work.pmid }),
    workKeyOf({ url: work.url }),
    workKeyOf({ resourceId: work.resourceId }),
  ];
  return [...new Set(keys.filter((key): key is string => key !== null))];
}

/** For each work, in order, the places it already is in `actor`'s library (empty when none). */
export async function findInLibrary(
  db: Db,
  actor: { id: string },
  works: WorkIdentifiers[],
): Promise<LibraryPlace[][]> {
  const keysOfWork = works.map(candidateKeys);
  const allKeys = [...new Set(keysOfWork.flat())];
  if (allKeys.length === 0) return works.map(() => []);
  const statement = sql`
    select r.work_key, r.id as resource_id, workspaces.id as workspace_id, workspaces.name as workspace_name
      from workspaces
      join workspace_resources r on r.workspace_id = workspaces.id and r.work_key in (${sql.join(
        allKeys.map((key) => sql`${key}`),
        sql`, `,
      )})
     where ${readableWorkspaces(actor)}
     order by workspaces.created_at, workspaces.id`;
  const result: unknown = await db.execute<Record<string, unknown>>(statement);
  const rows = (
    result as {
      rows: Array<{
        work_key: string;
        resource_id: string;
        workspace_id: string;
        workspace_name: string;
      }>;
    }
  ).rows;
  const placesByKey = new Map<string, LibraryPlace[]>();
  for (const row of rows) {
    const places = placesByKey.get(row.work_key) ?? [];
    places.push({
      workspaceId: row.workspace_id,
      workspaceName: row.workspace_name,
      resourceId: row.resource_id,
    });
    placesByKey.set(row.work_key, places);
  }
  return keysOfWork.map((keys) => {
    // One place per resource, even when it answers to two of the work's keys.
    const seen = new Set<string>();
    return keys
      .flatMap((key) => placesByKey.get(key) ?? [])
      .filter((place) => !seen.has(place.resourceId) && Boolean(seen.add(place.resourceId)));
  });
}
