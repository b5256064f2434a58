/**
 * What the workspace routes do, once the request is validated and the caller authorised: the rules
 * (limits, duplicates, identifier lookup, token handling) live here, the SQL in the store.
 */
import type { ResolvedResource, ResourceResolver } from '../context.js';
import { hashToken, randomToken, seal, unseal } from '../platform/crypto.js';
import type { Db, Tx } from '../platform/db/client.js';
import { ApiError, conflict, notFound, serviceUnavailable } from '../platform/errors.js';
import { stripHtml } from '../platform/sanitize.js';
import type { ExpectedVersions } from '../platform/versions.js';
import { httpUrlOf, LIMITS } from './schemas.js';
import {
  type BulkTagInput,
  type ResourceCreateInput,
  type ResourceUpdateInput,
} from './resources/schemas.js';
import { forgetEventsBefore, recordChange } from './events/record.js';
import { authorize, type Actor } from './policy.js';
import {
  loadWorkspace,
  deleteWorkspaceRow,
  findWorkspace,
  lockPdfKeys,
  lockWorkspaces,
  touchWorkspace,
  updateWorkspaceRow,
  type Versioned,
  type WorkspaceWithCounts,
} from './store.js';
import {
  countResources,
  deleteResourceRow,
  deleteResourceRows,
  findResource,
  insertResourceIfRoom,
  holderOfWorkKey,
  lockResource,
  lockResourceRow,
  lockResourcesOf,
  setTags,
  updateResourceRow,
  workKeysIn,
  type NewResourceRow,
  type ResourceChanges,
  type ResourceRow,
} from './resources/store.js';
import {
  countAnnotations,
  deleteAnnotationRow,
  insertAnnotation,
  updateAnnotationRow,
  type AnnotationRow,
  type AuthoredAnnotationRow,
} from './annotations/store.js';
import type { AnnotationColor } from './annotations/colors.js';
import {
  findShareLink,
  insertShareLink,
  resumeShareLinkRow,
  revokeShareLinkRow,
  setShareLinkJoining,
  type ShareLinkRow,
} from './share-links/store.js';
import { workKeyOf } from './resources/work-key.js';
import { citationKeyTaken } from './citation-keys/errors.js';
import { holderOfKey, keysTaken, moveRowsWithKeys } from './citation-keys/store.js';
import { renamesForMove, type KeyRename } from './citation-keys/keys.js';
import { ownValue } from '../platform/own-key.js';
import { DETAIL_TEXT_FIELDS } from '../search/index.js';
import {
  ABSTRACT_MAX,
  authorsOf,
  CREATORS_MAX,
  dateFromIso,
  RECORD_TEXT_MAX,
  type BibRecord,
  type RecordType,
} from '../records/index.js';
import {
  changedRecord,
  recordFromInput,
  RecordFieldsInput,
  typedFrom,
} from './resources/record-schemas.js';
import {
  creatorsFromNames,
  recordOfRow,
  recordColumns,
  recordFromData,
} from './resources/resource-record.js';

const SHARE_TOKEN_PURPOSE = 'share-link-token';
/** 32 random bytes = 256 bits, URL-safe. */
const SHARE_TOKEN_BYTES = 32;
const RESOLVE_TIMEOUT_MS = 15_000;

/** Record types by the provider a looked-up record came from, when it says none (docs/design.md, Search providers). */
const TYPE_BY_PROVIDER: Record<string, RecordType> = {
  arxiv: 'preprint',
  pubmed: 'article-journal',
  crossref: 'article-journal',
  openalex: 'article-journal',
  semanticscholar: 'article-journal',
  zenodo: 'dataset',
  youtube: 'motion_picture',
};

/** The fields a change sets (an absent one is left as it was). */
function fieldsOf(changes: object): string[] {
  return Object.entries(changes).flatMap(([field, value]) => (value === undefined ? [] : [field]));
}

/**
 * Looks an identifier up through search (15 s at most); a 404 naming `field` (where the identifier
 * came from) when nothing answers to it, a 503 when the providers could not be asked.
 */
export async function resolveIdentifier(
  resolve: ResourceResolver,
  identifier: string,
  field = 'resourceId',
): Promise<ResolvedResource> {
  let resolved: ResolvedResource | null;
  try {
    resolved = await resolve(identifier, AbortSignal.timeout(RESOLVE_TIMEOUT_MS));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw serviceUnavailable('Could not look the resource up right now; try again later');
  }
  if (!resolved) {
    throw new ApiError(
      'NOT_FOUND',
      field === 'resourceId'
        ? `No resource found for "${identifier}": send a search result id, DOI, arXiv id or PMID`
        : `No provider knows the ${field} "${identifier}"`,
      { field, reason: 'not_found' },
    );
  }
  return resolved;
}

/** The record a create body describes: its record fields over what its `data` says, its names either way. */
function recordOfBody(input: ResourceCreateInput, under: BibRecord = {}): BibRecord {
  const record: BibRecord = {
    ...under,
    ...recordFromData(input.data ?? {}),
    ...recordFromInput(input),
  };
  if (input.authors !== undefined) record.creators = creatorsFromNames(input.authors);
  if (record.creators?.length === 0) delete record.creators;
  return record;
}

/** The row to insert: the body's fields, filled from the looked-up record when added by `resourceId`. */
async function describeResource(
  resolve: ResourceResolver,
  workspaceId: string,
  input: ResourceCreateInput,
): Promise<NewResourceRow> {
  const data = input.data ?? {};
  if (input.resourceId === undefined) {
    const url = input.url ?? null;
    const record = recordOfBody(input);
    return {
      workspaceId,
      resourceId: null,
      workKey: workKeyOf({ doi: record.doi, arxivId: record.arxivId, pmid: record.pmid, url }),
      title: input.title ?? '',
      url,
      ...recordColumns(record, typedFrom(input.type).type, url),
      tags: input.tags ?? [],
      notes: input.notes ?? '',
      data,
    };
  }
  const found = await resolveIdentifier(resolve, input.resourceId);
  const looked = recordOf(found, input.resourceId);
  // Only http(s) addresses are saved, whatever the lookup gave (as for a `url` a request sends).
  const url = input.url ?? looked.url;
  const record = recordOfBody(input, looked.record);
  return {
    workspaceId,
    resourceId: input.resourceId,
    workKey: workKeyOf({
      doi: found.doi,
      arxivId: found.arxivId,
      pmid: found.pmid,
      url,
      resourceId: found.id || input.resourceId,
    }),
    title: input.title ?? looked.title,
    url,
    ...recordColumns(record, typedFrom(input.type).type ?? looked.type, url),
    tags: input.tags ?? [],
    notes: input.notes ?? '',
    data: { ...looked.data, ...data },
  };
}

/**
 * A looked-up record as a resource's fields: text stripped of HTML and bounded as a request's would
 * be, only http(s) addresses, everything the provider said of the work in the record (venue,
 * volume, issue, pages, publisher, structured names), the type by the provider when it says none.
 * Also fills a resource made from a PDF whose identifier was found.
 */
export function recordOf(found: ResolvedResource, identifier: string) {
  const details = found.details ?? {};
  const plain = (value: string | undefined) => {
    const text = value === undefined ? '' : stripHtml(value).replace(/\s+/g, ' ').trim();
    return text ? text.slice(0, RECORD_TEXT_MAX) : undefined;
  };
  const creators = details.creators?.length
    ? details.creators
    : creatorsFromNames(found.authors.map((name) => stripHtml(name).slice(0, LIMITS.author)));
  const record: BibRecord = {};
  if (creators.length > 0) record.creators = creators.slice(0, CREATORS_MAX);
  const issued = details.issued ?? dateFromIso(found.publishedDate);
  if (issued) record.issued = issued;
  for (const field of DETAIL_TEXT_FIELDS) {
    const value = plain(details[field]);
    if (value) record[field] = value;
  }
  const abstract = stripHtml(found.abstract).trim().slice(0, ABSTRACT_MAX);
  if (abstract) record.abstract = abstract;
  if (found.doi) record.doi = found.doi;
  if (found.arxivId) record.arxivId = found.arxivId;
  if (found.pmid) record.pmid = found.pmid;
  const data: Record<string, unknown> = Object.fromEntries(
    Object.entries({
      provider: found.provider,
      sourceId: found.id,
      pdfUrl: httpUrlOf(found.pdfUrl),
    }).filter(([, value]) => value !== undefined && value !== ''),
  );
  return {
    title: stripHtml(found.title).replace(/\s+/g, ' ').slice(0, LIMITS.title) || identifier,
    url: httpUrlOf(found.url) ?? null,
    type: details.type ?? ownValue(TYPE_BY_PROVIDER, found.provider) ?? null,
    record,
    data,
  };
}

/**
 * Adds a resource to a workspace: inserted only while the workspace holds fewer than its limit and
 * not the same work already (409 either way; a likely duplicate by title is added, as Zotero adds it,
 * and GET …/duplicates finds it), atomically even when adds to one workspace race
 * (store.insertResourceIfRoom). The slow, side-effect-free half (a lookup of `resourceId` through
 * search) is done here; the insert is the function returned, run on the database or in the
 * transaction that keeps the request's answer.
 */
export async function describeNewResource(
  resolve: ResourceResolver,
  workspaceId: string,
  addedBy: string,
  input: ResourceCreateInput,
): Promise<(db: Db) => Promise<ResourceRow>> {
  const values = await describeResource(resolve, workspaceId, input);
  return async (db) => {
    const added = await insertResourceIfRoom(
      db,
      { ...values, addedBy },
      LIMITS.resourcesPerWorkspace,
    );
    if ('row' in added) return added.row;
    switch (added.refused) {
      case 'no_workspace':
        throw notFound('Workspace');
      case 'full':
        throw conflict(`A workspace holds at most ${LIMITS.resourcesPerWorkspace} resources`, {
          field: 'workspace',
          reason: 'too_many_resources',
        });
      case 'duplicate':
        throw conflict('This work is already in the workspace', {
          field: input.resourceId !== undefined ? 'resourceId' : 'url',
          reason: 'duplicate',
        });
      case 'key_taken':
        throw citationKeyTaken(values.record.citationKey ?? '', added.holder);
    }
  };
}

/** Why a versioned write did not happen: the resource as it is now when it is there (a stale If-Match), else a 404. */
async function staleOrGone(tx: Tx, id: string): Promise<{ stale: ResourceRow }> {
  const current = await findResource(tx, id);
  if (!current) throw notFound('Resource');
  return { stale: current };
}

/** The columns a change sets, from the resource as it is now: the record's fields merged into its record. */
function changedColumns(current: ResourceRow, input: ResourceUpdateInput): ResourceChanges {
  const { notes, tags, title, url, type, authors, data } = input;
  const changes: ResourceChanges = { notes, tags, title, url, data };
  const touchesRecord =
    authors !== undefined ||
    Object.keys(RecordFieldsInput).some(
      (field) => input[field as keyof ResourceUpdateInput] !== undefined,
    );
  const before = recordOfRow(current);
  const record = touchesRecord ? changedRecord(before, input) : { ...before };
  // A work imported without a title has one once it is given one (records/record.ts, `untitled`).
  const titled = title !== undefined && before.untitled === true;
  if (titled) delete record.untitled;
  if (authors !== undefined) {
    const creators = creatorsFromNames(authors);
    if (creators.length > 0) record.creators = creators;
    else delete record.creators;
  }
  if (touchesRecord || titled || current.record === null) {
    changes.record = record;
    changes.authors = authorsOf(record);
  }
  const typed = typedFrom(type);
  if (typed.type) changes.type = typed.type;
  if (typed.genre && !record.genre) {
    changes.record = { ...record, genre: typed.genre };
    changes.authors ??= authorsOf(record);
  }
  const newUrl = url === undefined ? current.url : url;
  if (touchesRecord || url !== undefined) {
    const workKey = workKeyOf({
      doi: record.doi,
      arxivId: record.arxivId,
      pmid: record.pmid,
      url: newUrl,
    });
    // A work found by search keeps the key its search id gave, unless the identifiers now say otherwise.
    if (workKey !== null || current.resourceId === null) changes.workKey = workKey;
  }
  return changes;
}

/**
 * Changes any of a resource's fields, when its version is one `expected` names (If-Match), and
 * marks the workspace changed, as adding and removing do. The row is read and written under its lock,
 * so a change without If-Match merges into what the resource is at that moment; a change that makes it
 * the same work as another resource of the workspace (a DOI it already holds) is a 409 naming that one.
 */
export async function changeResource(
  db: Db,
  resource: ResourceRow,
  input: ResourceUpdateInput,
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<ResourceRow>> {
  return db.transaction(async (tx) => {
    // The workspace first, as adding locks it: a work key taken meanwhile by an add is seen here.
    await lockWorkspaces(tx, [resource.workspaceId]);
    const current = await lockResourceRow(tx, resource.id);
    if (!current) throw notFound('Resource');
    if (expected !== null && !expected.includes(current.version)) return { stale: current };
    const changes = changedColumns(current, input);
    if (changes.workKey && changes.workKey !== current.workKey) {
      const holder = await holderOfWorkKey(tx, current.workspaceId, changes.workKey, current.id);
      if (holder)
        throw conflict(`Resource ${holder} of this workspace is this work already`, {
          field: input.doi !== undefined ? 'doi' : input.url !== undefined ? 'url' : 'identifier',
          reason: 'duplicate',
        });
    }
    if (input.citationKey !== undefined && input.citationKey !== current.citationKey) {
      // Under the workspace's lock, as every write of keys is; the unique index stands behind it.
      const holder = await holderOfKey(tx, current.workspaceId, input.citationKey, current.id);
      if (holder) throw citationKeyTaken(input.citationKey, holder.id);
      changes.citationKey = input.citationKey;
    }
    const updated = await updateResourceRow(tx, current.id, changes, actorId);
    if (!updated) throw notFound('Resource');
    await touchWorkspace(tx, updated.workspaceId);
    await recordChange(tx, {
      type: 'resource.updated',
      workspaceId: updated.workspaceId,
      actorId,
      resourceId: updated.id,
      details: { title: updated.title, fields: fieldsOf(input) },
    });
    return { row: updated };
  });
}

/**
 * Removes a resource (its annotations and PDF row go with it) and marks the workspace changed; the
 * blob key of its PDF file, if it had one, is the caller's to forget once this has committed. A
 * resource another request removed since it was loaded is not found: of two concurrent removals, one succeeds.
 */
export async function removeResource(
  db: Db,
  resource: ResourceRow,
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<string[], ResourceRow>> {
  return db.transaction(async (tx) => {
    const pdfKeys = await lockPdfKeys(tx, resource.workspaceId, [resource.id]);
    if (!(await deleteResourceRow(tx, resource.id, expected))) return staleOrGone(tx, resource.id);
    await touchWorkspace(tx, resource.workspaceId);
    await recordChange(tx, {
      type: 'resource.removed',
      workspaceId: resource.workspaceId,
      actorId,
      resourceId: resource.id,
      details: { title: resource.title },
    });
    return { row: pdfKeys };
  });
}

/**
 * Deletes a workspace with everything in it, when its version is one `expected` names: the blob keys
 * of its PDF files to forget, the workspace as it is now when If-Match was stale, or null when it was
 * already gone. Its change log goes too, but for the deletion itself, which its streams still read.
 */
export async function deleteWorkspace(
  db: Db,
  workspace: { id: string; name: string },
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<string[], WorkspaceWithCounts> | null> {
  return db.transaction(async (tx) => {
    const pdfKeys = await lockPdfKeys(tx, workspace.id);
    if (await deleteWorkspaceRow(tx, workspace.id, expected)) {
      await forgetEventsBefore(
        tx,
        workspace.id,
        await recordChange(tx, {
          type: 'workspace.deleted',
          workspaceId: workspace.id,
          actorId,
          details: { name: workspace.name },
        }),
      );
      return { row: pdfKeys };
    }
    const current = await findWorkspace(tx, workspace.id);
    return current ? { stale: current } : null;
  });
}

/** Renames a workspace or changes its description or isPublic, at a version `expected` names; null when it is gone. */
export async function updateWorkspace(
  db: Db,
  workspaceId: string,
  changes: Parameters<typeof updateWorkspaceRow>[2],
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<WorkspaceWithCounts> | null> {
  return db.transaction(async (tx) => {
    const updated = await updateWorkspaceRow(tx, workspaceId, changes, expected);
    if (updated && 'row' in updated)
      await recordChange(tx, {
        type: 'workspace.updated',
        workspaceId,
        actorId,
        details: { name: updated.row.name, fields: fieldsOf(changes) },
      });
    return updated;
  });
}

// ---- several resources at once (the library view's selection) ----

/**
 * The named resources of the workspace, locked until the transaction ends; a 404 when any of them is
 * not in it (another user's resource, one removed meanwhile, a made-up id), as for a single resource.
 */
async function lockNamedResources(
  tx: Tx,
  workspaceId: string,
  ids: string[],
): Promise<ResourceRow[]> {
  const rows = await lockResourcesOf(tx, workspaceId, ids);
  if (rows.length !== ids.length) {
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.findIndex((id) => !found.has(id));
    throw new ApiError('NOT_FOUND', 'Resource not found', {
      field: `resourceIds.${missing}`,
      reason: 'not_found',
    });
  }
  return rows;
}

/** `tags` with `add` appended (those not there in any case) and `remove` taken off (any case). */
function retag(tags: string[], add: string[], remove: string[]): string[] {
  const removed = new Set(remove.map((tag) => tag.toLowerCase()));
  const kept = tags.filter((tag) => !removed.has(tag.toLowerCase()));
  const present = new Set(kept.map((tag) => tag.toLowerCase()));
  return [
    ...kept,
    ...add.filter((tag) => !removed.has(tag.toLowerCase()) && !present.has(tag.toLowerCase())),
  ];
}

/** Adds and removes tags on several resources of one workspace; all or nothing (409 when one would hold too many). */
export async function retagResources(
  db: Db,
  workspaceId: string,
  input: BulkTagInput,
  actorId: string,
): Promise<Array<{ id: string; tags: string[] }>> {
  return db.transaction(async (tx) => {
    const rows = await lockNamedResources(tx, workspaceId, input.resourceIds);
    const changes = rows.map((row) => ({
      id: row.id,
      tags: retag(row.tags, input.add ?? [], input.remove ?? []),
    }));
    const crowded = changes.find((change) => change.tags.length > LIMITS.tags);
    if (crowded) {
      throw conflict(`A resource holds at most ${LIMITS.tags} tags`, {
        field: `resourceIds.${input.resourceIds.indexOf(crowded.id)}`,
        reason: 'too_many_tags',
      });
    }
    await setTags(tx, changes);
    await touchWorkspace(tx, workspaceId);
    await recordChange(tx, {
      type: 'resource.updated',
      workspaceId,
      actorId,
      details: { count: changes.length, resourceIds: input.resourceIds, fields: ['tags'] },
    });
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
export async function moveResources(
  db: Db,
  sourceId: string,
  targetId: string,
  ids: string[],
  actorId: string,
): Promise<{ moved: string[]; duplicates: string[]; keysChanged: KeyRename[] }> {
  return db.transaction(async (tx) => {
    if ((await lockWorkspaces(tx, [sourceId, targetId])).length !== 2) throw notFound('Workspace');
    const rows = await lockNamedResources(tx, sourceId, ids);
    const taken = await workKeysIn(
      tx,
      targetId,
      rows.flatMap((row) => (row.workKey === null ? [] : [row.workKey])),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const duplicates = ids.filter((id) => {
      const key = byId.get(id)?.workKey;
      return key != null && taken.has(key);
    });
    const moved = ids.filter((id) => !duplicates.includes(id));
    if ((await countResources(tx, targetId)) + moved.length > LIMITS.resourcesPerWorkspace) {
      throw conflict(
        `A workspace holds at most ${LIMITS.resourcesPerWorkspace} resources: the target has no room for ${moved.length} more`,
        {
          field: 'targetWorkspaceId',
          reason: 'too_many_resources',
        },
      );
    }
    // Keys go with them; one another resource of the target holds gets a suffix (citation-keys/).
    const keysChanged = renamesForMove(
      moved.map((id) => byId.get(id)!),
      await keysTaken(tx, targetId),
    );
    if (moved.length > 0) {
      await moveRowsWithKeys(tx, moved, targetId, keysChanged);
      await touchWorkspace(tx, sourceId);
      await touchWorkspace(tx, targetId);
      // Logged in workspace id order, as the rows were locked: two moves between the same two workspaces cannot deadlock.
      const moves = [
        {
          type: 'resource.removed' as const,
          workspaceId: sourceId,
          details: { count: moved.length, resourceIds: moved, to: targetId },
        },
        {
          type: 'resource.added' as const,
          workspaceId: targetId,
          details: { count: moved.length, resourceIds: moved, from: sourceId },
        },
      ].sort((a, b) => a.workspaceId.localeCompare(b.workspaceId));
      for (const move of moves) await recordChange(tx, { ...move, actorId });
    }
    return { moved, duplicates, keysChanged };
  });
}

/**
 * Removes several resources of one workspace (their annotations go with them); all or nothing. The
 * blob keys of their PDF files are the caller's to forget once this has committed.
 */
export async function removeResources(
  db: Db,
  workspaceId: string,
  ids: string[],
  actorId: string,
): Promise<{ removed: string[]; pdfKeys: string[] }> {
  return db.transaction(async (tx) => {
    await lockNamedResources(tx, workspaceId, ids);
    const pdfKeys = await lockPdfKeys(tx, workspaceId, ids);
    await deleteResourceRows(tx, workspaceId, ids);
    await touchWorkspace(tx, workspaceId);
    await recordChange(tx, {
      type: 'resource.removed',
      workspaceId,
      actorId,
      details: { count: ids.length, resourceIds: ids },
    });
    return { removed: ids, pdfKeys };
  });
}

export async function annotateResource(
  db: Db,
  userId: string,
  resourceId: string,
  input: { body: string; color?: AnnotationColor; highlights?: Record<string, unknown> },
): Promise<AnnotationRow> {
  return db.transaction(async (tx) => {
    if (!(await lockResource(tx, resourceId))) throw notFound('Resource');
    if ((await countAnnotations(tx, resourceId)) >= LIMITS.annotationsPerResource) {
      throw conflict(`A resource holds at most ${LIMITS.annotationsPerResource} annotations`, {
        field: 'resource',
        reason: 'too_many_annotations',
      });
    }
    const annotation = await insertAnnotation(tx, {
      resourceId,
      userId,
      body: input.body,
      color: input.color ?? 'yellow',
      highlights: input.highlights ?? {},
    });
    await recordChange(tx, {
      type: 'annotation.added',
      workspaceId: null,
      actorId: userId,
      resourceId,
      annotationId: annotation.id,
    });
    return annotation;
  });
}

/** Changes an annotation's body, colour and/or highlights; null when it is gone. */
export async function changeAnnotation(
  db: Db,
  annotation: AnnotationRow,
  changes: { body?: string; color?: AnnotationColor; highlights?: Record<string, unknown> },
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<AnnotationRow, AuthoredAnnotationRow> | null> {
  return db.transaction(async (tx) => {
    const updated = await updateAnnotationRow(tx, annotation.id, changes, expected);
    if (updated && 'row' in updated)
      await recordChange(tx, {
        type: 'annotation.updated',
        workspaceId: null,
        actorId,
        resourceId: updated.row.resourceId,
        annotationId: updated.row.id,
      });
    return updated;
  });
}

/** Deletes an annotation at a version `expected` names; null when it was already gone. */
export async function removeAnnotation(
  db: Db,
  annotation: AnnotationRow,
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<{ id: string }, AuthoredAnnotationRow> | null> {
  return db.transaction(async (tx) => {
    const removed = await deleteAnnotationRow(tx, annotation.id, expected);
    if (removed && 'row' in removed)
      await recordChange(tx, {
        type: 'annotation.removed',
        workspaceId: null,
        actorId,
        resourceId: annotation.resourceId,
        annotationId: annotation.id,
      });
    return removed;
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
  options: { expiresAt: Date; readOnly: boolean; allowJoin: boolean },
): Promise<{ link: ShareLinkRow; token: string }> {
  const token = randomToken(SHARE_TOKEN_BYTES);
  const link = await db.transaction(async (tx) => {
    const inserted = await insertShareLink(tx, {
      workspaceId,
      tokenHash: hashToken(token),
      tokenSealed: seal(token, secret, SHARE_TOKEN_PURPOSE),
      expiresAt: options.expiresAt,
      readOnly: options.readOnly,
      allowJoin: options.allowJoin,
      createdBy: creator.id,
    });
    await recordChange(tx, {
      type: 'share.updated',
      workspaceId,
      actorId: creator.id,
      details: {
        shareId: inserted.id,
        change: 'created',
        readOnly: options.readOnly,
        allowJoin: options.allowJoin,
      },
    });
    return inserted;
  });
  return { link, token };
}

/** Revokes a link of the workspace; false when it has no such unrevoked link. */
export async function revokeShareLink(
  db: Db,
  workspaceId: string,
  shareId: string,
  actorId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const revoked = await revokeShareLinkRow(tx, workspaceId, shareId);
    if (revoked)
      await recordChange(tx, {
        type: 'share.updated',
        workspaceId,
        actorId,
        details: { shareId, change: 'revoked' },
      });
    return revoked;
  });
}

/**
 * Turns joining through a read-only link of the workspace on or off; null when it has no such unrevoked
 * link. An editable link is for joining: turning it off is a 409 (revoke the link instead).
 */
export async function setShareLinkJoin(
  db: Db,
  workspaceId: string,
  shareId: string,
  allowJoin: boolean,
  actorId: string,
): Promise<ShareLinkRow | null> {
  return db.transaction(async (tx) => {
    const link = await findShareLink(tx, workspaceId, shareId);
    if (!link) return null;
    if (!link.readOnly && !allowJoin)
      throw conflict('An editable link is for joining; revoke it to stop new joins', {
        field: 'allowJoin',
        reason: 'editable',
      });
    if (link.allowJoin === allowJoin) return link;
    const updated = await setShareLinkJoining(tx, workspaceId, shareId, allowJoin);
    if (updated)
      await recordChange(tx, {
        type: 'share.updated',
        workspaceId,
        actorId,
        details: { shareId, change: allowJoin ? 'join-allowed' : 'join-stopped' },
      });
    return updated;
  });
}

/** Resumes a paused link of the workspace; null when it has no such link. */
export async function resumeShareLink(
  db: Db,
  workspaceId: string,
  shareId: string,
  actorId: string,
): Promise<ShareLinkRow | null> {
  return db.transaction(async (tx) => {
    const resumed = await resumeShareLinkRow(tx, workspaceId, shareId);
    if (resumed)
      await recordChange(tx, {
        type: 'share.updated',
        workspaceId,
        actorId,
        details: { shareId, change: 'resumed' },
      });
    return resumed;
  });
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
export async function findReadableWorkspace(
  db: Db,
  actor: Actor,
  id: string,
): Promise<WorkspaceWithCounts> {
  return authorize(actor, 'read', await loadWorkspace(db, id, actor)).workspace;
}
