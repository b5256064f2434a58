/**
 * What the workspace routes do, once the request is validated and the caller authorised: the rules
 * (limits, duplicates, identifier lookup, token handling) live here, the SQL in the store.
 */
import type { ResolvedResource, ResourceResolver } from '../context.js';
import { hashToken, randomToken, seal, unseal } from '../platform/crypto.js';
import type { Db, Tx } from '../platform/db/client.js';
import { ApiError, conflict, notFound, serviceUnavailable } from '../platform/errors.js';
import { stripHtml } from '../platform/sanitize.js';
import { httpUrlOf, LIMITS, type BulkTagInput, type ResourceCreateInput, type ResourceUpdateInput } from './schemas.js';
import { authorize, type Actor } from './policy.js';
import {
  countAnnotations,
  countResources,
  loadWorkspace,
  deleteResourceRow,
  deleteResourceRows,
  deleteWorkspaceRow,
  insertAnnotation,
  insertResourceIfRoom,
  insertShareLink,
  lockPdfKeys,
  lockResource,
  lockResourcesOf,
  lockWorkspaces,
  moveResourceRows,
  setTags,
  touchWorkspace,
  updateResourceRow,
  workKeysIn,
  type AnnotationRow,
  type NewResourceRow,
  type ResourceRow,
  type ShareLinkRow,
  type WorkspaceWithCounts,
} from './store.js';
import { workKeyOf } from './work-key.js';

const SHARE_TOKEN_PURPOSE = 'share-link-token';
/** 32 random bytes = 256 bits, URL-safe. */
const SHARE_TOKEN_BYTES = 32;
const RESOLVE_TIMEOUT_MS = 15_000;

/** Resource kinds by the provider a looked-up record came from (docs/design.md, Search providers). */
const TYPE_BY_PROVIDER: Record<string, string> = {
  arxiv: 'preprint',
  pubmed: 'article',
  crossref: 'article',
  openalex: 'article',
  semanticscholar: 'article',
  zenodo: 'dataset',
  youtube: 'video',
};

function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** Looks a `resourceId` up through search; 404 naming the field when nothing answers to it. */
async function resolveIdentifier(resolve: ResourceResolver, identifier: string): Promise<ResolvedResource> {
  let resolved: ResolvedResource | null;
  try {
    resolved = await resolve(identifier, AbortSignal.timeout(RESOLVE_TIMEOUT_MS));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw serviceUnavailable('Could not look the resource up right now; try again later');
  }
  if (!resolved) {
    throw new ApiError('NOT_FOUND', `No resource found for "${identifier}": send a search result id, DOI, arXiv id or PMID`, {
      field: 'resourceId',
      reason: 'not_found',
    });
  }
  return resolved;
}

/** The row to insert: the body's fields, filled from the looked-up record when added by `resourceId`. */
async function describeResource(resolve: ResourceResolver, workspaceId: string, input: ResourceCreateInput): Promise<NewResourceRow> {
  const data = input.data ?? {};
  if (input.resourceId === undefined) {
    const url = input.url ?? null;
    return {
      workspaceId,
      resourceId: null,
      workKey: workKeyOf({ doi: stringOf(data.doi ?? data.DOI), arxivId: stringOf(data.arxivId), pmid: stringOf(data.pmid), url }),
      title: input.title ?? '',
      url,
      type: input.type || null,
      authors: input.authors ?? [],
      tags: input.tags ?? [],
      notes: input.notes ?? '',
      data,
    };
  }
  const found = await resolveIdentifier(resolve, input.resourceId);
  const record = recordOf(found, input.resourceId);
  // Only http(s) addresses are saved, whatever the lookup gave (as for a `url` a request sends).
  const url = input.url ?? record.url;
  return {
    workspaceId,
    resourceId: input.resourceId,
    workKey: workKeyOf({ doi: found.doi, arxivId: found.arxivId, pmid: found.pmid, url, resourceId: found.id || input.resourceId }),
    title: input.title ?? record.title,
    url,
    type: input.type || record.type,
    authors: input.authors ?? record.authors,
    tags: input.tags ?? [],
    notes: input.notes ?? '',
    data: { ...record.data, ...data },
  };
}

/**
 * A looked-up record as a resource's fields: text stripped of HTML and bounded as a request's would
 * be, only http(s) addresses, the kind by the provider. Also fills a resource made from a PDF.
 */
export function recordOf(found: ResolvedResource, identifier: string) {
  const data: Record<string, unknown> = Object.fromEntries(
    Object.entries({
      provider: found.provider,
      sourceId: found.id,
      abstract: stripHtml(found.abstract),
      publishedDate: found.publishedDate,
      doi: found.doi,
      arxivId: found.arxivId,
      pmid: found.pmid,
      pdfUrl: httpUrlOf(found.pdfUrl),
    }).filter(([, value]) => value !== undefined && value !== ''),
  );
  return {
    title: stripHtml(found.title).replace(/\s+/g, ' ').slice(0, LIMITS.title) || identifier,
    url: httpUrlOf(found.url) ?? null,
    type: TYPE_BY_PROVIDER[found.provider] || null,
    authors: found.authors.map((name) => stripHtml(name).slice(0, LIMITS.author)).filter(Boolean).slice(0, LIMITS.authors),
    data,
  };
}

/**
 * Adds a resource to a workspace: inserted only while the workspace holds fewer than its limit and
 * not the same work already (409 either way), atomically even when adds to one workspace race
 * (store.insertResourceIfRoom).
 */
export async function addResource(db: Db, resolve: ResourceResolver, workspaceId: string, addedBy: string, input: ResourceCreateInput): Promise<ResourceRow> {
  const values = await describeResource(resolve, workspaceId, input);
  const added = await insertResourceIfRoom(db, { ...values, addedBy }, LIMITS.resourcesPerWorkspace);
  if ('row' in added) return added.row;
  switch (added.refused) {
    case 'no_workspace':
      throw notFound('Workspace');
    case 'full':
      throw conflict(`A workspace holds at most ${LIMITS.resourcesPerWorkspace} resources`, { field: 'workspace', reason: 'too_many_resources' });
    case 'duplicate':
      throw conflict('This work is already in the workspace', { field: input.resourceId !== undefined ? 'resourceId' : 'url', reason: 'duplicate' });
  }
}

/** Changes a resource's notes and/or tags and marks the workspace changed, as adding and removing do. */
export async function changeResource(db: Db, resource: ResourceRow, changes: ResourceUpdateInput): Promise<ResourceRow> {
  return db.transaction(async (tx) => {
    const updated = await updateResourceRow(tx, resource.id, changes);
    if (!updated) throw notFound('Resource');
    await touchWorkspace(tx, updated.workspaceId);
    return updated;
  });
}

/**
 * Removes a resource (its annotations and PDF row go with it) and marks the workspace changed; the
 * blob key of its PDF file, if it had one, is the caller's to forget once this has committed. A
 * resource another request removed since it was loaded is not found: of two concurrent removals, one succeeds.
 */
export async function removeResource(db: Db, resource: ResourceRow): Promise<string[]> {
  return db.transaction(async (tx) => {
    const pdfKeys = await lockPdfKeys(tx, resource.workspaceId, [resource.id]);
    if (!(await deleteResourceRow(tx, resource.id))) throw notFound('Resource');
    await touchWorkspace(tx, resource.workspaceId);
    return pdfKeys;
  });
}

/** Deletes a workspace with everything in it; the blob keys of its PDF files to forget, or null when it was already gone. */
export async function deleteWorkspace(db: Db, workspaceId: string): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const pdfKeys = await lockPdfKeys(tx, workspaceId);
    return (await deleteWorkspaceRow(tx, workspaceId)) ? pdfKeys : null;
  });
}

// ---- several resources at once (the library view's selection) ----

/**
 * The named resources of the workspace, locked until the transaction ends; a 404 when any of them is
 * not in it (another user's resource, one removed meanwhile, a made-up id), as for a single resource.
 */
async function lockNamedResources(tx: Tx, workspaceId: string, ids: string[]): Promise<ResourceRow[]> {
  const rows = await lockResourcesOf(tx, workspaceId, ids);
  if (rows.length !== ids.length) {
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.findIndex((id) => !found.has(id));
    throw new ApiError('NOT_FOUND', 'Resource not found', { field: `resourceIds.${missing}`, reason: 'not_found' });
  }
  return rows;
}

/** `tags` with `add` appended (those not there in any case) and `remove` taken off (any case). */
function retag(tags: string[], add: string[], remove: string[]): string[] {
  const removed = new Set(remove.map((tag) => tag.toLowerCase()));
  const kept = tags.filter((tag) => !removed.has(tag.toLowerCase()));
  const present = new Set(kept.map((tag) => tag.toLowerCase()));
  return [...kept, ...add.filter((tag) => !removed.has(tag.toLowerCase()) && !present.has(tag.toLowerCase()))];
}

/** Adds and removes tags on several resources of one workspace; all or nothing (409 when one would hold too many). */
export async function retagResources(db: Db, workspaceId: string, input: BulkTagInput): Promise<Array<{ id: string; tags: string[] }>> {
  return db.transaction(async (tx) => {
    const rows = await lockNamedResources(tx, workspaceId, input.resourceIds);
    const changes = rows.map((row) => ({ id: row.id, tags: retag(row.tags, input.add ?? [], input.remove ?? []) }));
    const crowded = changes.find((change) => change.tags.length > LIMITS.tags);
    if (crowded) {
      throw conflict(`A resource holds at most ${LIMITS.tags} tags`, { field: `resourceIds.${input.resourceIds.indexOf(crowded.id)}`, reason: 'too_many_tags' });
    }
    await setTags(tx, changes);
    await touchWorkspace(tx, workspaceId);
    // In the order they were named.
    const byId = new Map(changes.map((change) => [change.id, change]));
    return input.resourceIds.map((id) => byId.get(id)!);
  });
}

/**
 * Moves several resources (their annotations and PDFs go with them) to another workspace, in one
 * transaction. Both workspaces are locked first, as adding a resource locks its workspace, so the
 * target's count and its work keys stay true until the move commits. A resource whose work is already
 * in the target stays where it is and is reported; the rest move only if the target has room for all.
 */
export async function moveResources(db: Db, sourceId: string, targetId: string, ids: string[]): Promise<{ moved: string[]; duplicates: string[] }> {
  return db.transaction(async (tx) => {
    if ((await lockWorkspaces(tx, [sourceId, targetId])).length !== 2) throw notFound('Workspace');
    const rows = await lockNamedResources(tx, sourceId, ids);
    const taken = await workKeysIn(tx, targetId, rows.flatMap((row) => (row.workKey === null ? [] : [row.workKey])));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const duplicates = ids.filter((id) => {
      const key = byId.get(id)?.workKey;
      return key != null && taken.has(key);
    });
    const moved = ids.filter((id) => !duplicates.includes(id));
    if ((await countResources(tx, targetId)) + moved.length > LIMITS.resourcesPerWorkspace) {
      throw conflict(`A workspace holds at most ${LIMITS.resourcesPerWorkspace} resources: the target has no room for ${moved.length} more`, {
        field: 'targetWorkspaceId',
        reason: 'too_many_resources',
      });
    }
    if (moved.length > 0) {
      await moveResourceRows(tx, moved, targetId);
      await touchWorkspace(tx, sourceId);
      await touchWorkspace(tx, targetId);
    }
    return { moved, duplicates };
  });
}

/**
 * Removes several resources of one workspace (their annotations go with them); all or nothing. The
 * blob keys of their PDF files are the caller's to forget once this has committed.
 */
export async function removeResources(db: Db, workspaceId: string, ids: string[]): Promise<{ removed: string[]; pdfKeys: string[] }> {
  return db.transaction(async (tx) => {
    await lockNamedResources(tx, workspaceId, ids);
    const pdfKeys = await lockPdfKeys(tx, workspaceId, ids);
    await deleteResourceRows(tx, workspaceId, ids);
    await touchWorkspace(tx, workspaceId);
    return { removed: ids, pdfKeys };
  });
}

export async function annotateResource(
  db: Db,
  userId: string,
  resourceId: string,
  input: { body: string; highlights?: Record<string, unknown> },
): Promise<AnnotationRow> {
  return db.transaction(async (tx) => {
    if (!(await lockResource(tx, resourceId))) throw notFound('Resource');
    if ((await countAnnotations(tx, resourceId)) >= LIMITS.annotationsPerResource) {
      throw conflict(`A resource holds at most ${LIMITS.annotationsPerResource} annotations`, {
        field: 'resource',
        reason: 'too_many_annotations',
      });
    }
    return insertAnnotation(tx, { resourceId, userId, body: input.body, highlights: input.highlights ?? {} });
  });
}

/**
 * A new share link, read-only or editable (the caller has authorized which), remembering who made it:
 * only the token's hash is searchable, and a sealed copy lets the owner list it again.
 */
export async function createShareLink(
  db: Db,
  secret: string,
  workspaceId: string,
  creator: Actor,
  options: { expiresAt: Date; readOnly: boolean },
): Promise<{ link: ShareLinkRow; token: string }> {
  const token = randomToken(SHARE_TOKEN_BYTES);
  const link = await insertShareLink(db, {
    workspaceId,
    tokenHash: hashToken(token),
    tokenSealed: seal(token, secret, SHARE_TOKEN_PURPOSE),
    expiresAt: options.expiresAt,
    readOnly: options.readOnly,
    createdBy: creator.id,
  });
  return { link, token };
}

export function shareTokenOf(link: ShareLinkRow, secret: string): string | null {
  return unseal(link.tokenSealed, secret, SHARE_TOKEN_PURPOSE);
}

export function shareUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/share/${token}`;
}

/** The app's page where a signed-in visitor joins a share link's workspace (web/src/pages/join). */
export function joinPageUrl(appOrigin: string, token: string): string {
  return `${appOrigin}/join/${token}`;
}

/** Tokens this service hands out; anything else is not looked up at all. */
export function isWellFormedShareToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** A workspace `actor` may read, else the 404 an unknown one gives (for other capabilities, e.g. library search's filter). */
export async function findReadableWorkspace(db: Db, actor: Actor, id: string): Promise<WorkspaceWithCounts> {
  return authorize(actor, 'read', await loadWorkspace(db, id, actor)).workspace;
}
