/**
 * What other capabilities read of saved resources to follow the citation graph (discover): a resource
 * the actor may read, and a workspace's resources, each as the identifiers a provider knows a work by.
 * Authorized as reading the workspace: anyone else is told it does not exist (404).
 */
import type { Db } from '../platform/db/client.js';
import { recordOfRow } from './resources/resource-record.js';
import { authorize, type Actor } from './policy.js';
import { loadWorkspace } from './store.js';
import { listResources, loadResource, type ResourceRow } from './resources/store.js';

export interface SavedWorkIds {
  /** The saved resource's id. */
  id: string;
  /** The search result id it was added by (`openalex:W…`, `semanticscholar:…`), when it was. */
  sourceId?: string;
  doi?: string;
  arxivId?: string;
  pmid?: string;
  url?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function savedWorkIds(row: ResourceRow): SavedWorkIds {
  const data = row.data;
  const record = recordOfRow(row);
  const sourceId = text(row.resourceId) ?? text(data.sourceId);
  const doi = text(record.doi);
  const arxivId = text(record.arxivId);
  const pmid = text(record.pmid);
  const url = text(row.url);
  return {
    id: row.id,
    ...(sourceId ? { sourceId } : {}),
    ...(doi ? { doi } : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(pmid ? { pmid } : {}),
    ...(url ? { url } : {}),
  };
}

/** A saved resource's identifiers when `actor` may read it; else the 404 an unknown one gives. */
export async function readableResourceIds(
  db: Db,
  actor: Actor,
  resourceId: string,
): Promise<SavedWorkIds> {
  return savedWorkIds(authorize(actor, 'read', await loadResource(db, resourceId, actor)).resource);
}

/** Every resource of a workspace `actor` may read (newest first), as identifiers; else a 404. */
export async function readableWorkspaceWorkIds(
  db: Db,
  actor: Actor,
  workspaceId: string,
): Promise<SavedWorkIds[]> {
  const { workspace } = authorize(actor, 'read', await loadWorkspace(db, workspaceId, actor));
  return (await listResources(db, workspace.id)).map(savedWorkIds);
}
