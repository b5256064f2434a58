/**
 * What the workspace routes do, once the request is validated and the caller authorised: the rules
 * (limits, duplicates, identifier lookup, token handling) live here, the SQL in the store.
 */
import type { ResolvedResource, ResourceResolver } from '../context.js';
import { hashToken, randomToken, seal, unseal } from '../platform/crypto.js';
import type { Db } from '../platform/db/client.js';
import { ApiError, conflict, notFound, serviceUnavailable } from '../platform/errors.js';
import { stripHtml } from '../platform/sanitize.js';
import { httpUrlOf, LIMITS, type ResourceCreateInput, type ResourceUpdateInput } from './schemas.js';
import { authorize, type Actor } from './policy.js';
import {
  countAnnotations,
  loadWorkspace,
  deleteResourceRow,
  insertAnnotation,
  insertResourceIfRoom,
  insertShareLink,
  lockResource,
  touchWorkspace,
  updateResourceRow,
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
  const lookedUp: Record<string, unknown> = Object.fromEntries(
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
  // Only http(s) addresses are saved, whatever the lookup gave (as for a `url` a request sends).
  const url = input.url ?? httpUrlOf(found.url) ?? null;
  return {
    workspaceId,
    resourceId: input.resourceId,
    workKey: workKeyOf({ doi: found.doi, arxivId: found.arxivId, pmid: found.pmid, url, resourceId: found.id || input.resourceId }),
    title: input.title ?? (stripHtml(found.title).replace(/\s+/g, ' ').slice(0, LIMITS.title) || input.resourceId),
    url,
    type: input.type || TYPE_BY_PROVIDER[found.provider] || null,
    authors: input.authors ?? found.authors.map((name) => stripHtml(name).slice(0, LIMITS.author)).filter(Boolean).slice(0, LIMITS.authors),
    tags: input.tags ?? [],
    notes: input.notes ?? '',
    data: { ...lookedUp, ...data },
  };
}

/**
 * Adds a resource to a workspace: inserted only while the workspace holds fewer than its limit and
 * not the same work already (409 either way), atomically even when adds to one workspace race
 * (store.insertResourceIfRoom).
 */
export async function addResource(db: Db, resolve: ResourceResolver, workspaceId: string, input: ResourceCreateInput): Promise<ResourceRow> {
  const values = await describeResource(resolve, workspaceId, input);
  const added = await insertResourceIfRoom(db, values, LIMITS.resourcesPerWorkspace);
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
 * Removes a resource (its annotations go with it) and marks the workspace changed. A resource another
 * request removed since it was loaded is not found: of two concurrent removals, one succeeds.
 */
export async function removeResource(db: Db, resource: ResourceRow): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await deleteResourceRow(tx, resource.id))) throw notFound('Resource');
    await touchWorkspace(tx, resource.workspaceId);
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

/** A new share link: only the token's hash is searchable, and a sealed copy lets the owner list it again. */
export async function createShareLink(
  db: Db,
  secret: string,
  workspaceId: string,
  options: { expiresAt: Date },
): Promise<{ link: ShareLinkRow; token: string }> {
  const token = randomToken(SHARE_TOKEN_BYTES);
  const link = await insertShareLink(db, {
    workspaceId,
    tokenHash: hashToken(token),
    tokenSealed: seal(token, secret, SHARE_TOKEN_PURPOSE),
    expiresAt: options.expiresAt,
  });
  return { link, token };
}

export function shareTokenOf(link: ShareLinkRow, secret: string): string | null {
  return unseal(link.tokenSealed, secret, SHARE_TOKEN_PURPOSE);
}

export function shareUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/share/${token}`;
}

/** Tokens this service hands out; anything else is not looked up at all. */
export function isWellFormedShareToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** A workspace `actor` may read, else the 404 an unknown one gives (for other capabilities, e.g. library search's filter). */
export async function findReadableWorkspace(db: Db, actor: Actor, id: string): Promise<WorkspaceWithCounts> {
  return authorize(actor, 'read', await loadWorkspace(db, id)).workspace;
}
