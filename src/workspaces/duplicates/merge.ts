/**
 * Merging likely duplicates into one resource, in one transaction: the kept resource's record with
 * every field it lacks taken from the others (in the order they are named), notes joined, tags
 * united, every annotation moved to it, a PDF moved when it has none, the others removed; logged as
 * the kept resource updated and the others removed, live to the workspace's other members.
 */
import type { Tx, Db } from '../../platform/db/client.js';
import { ApiError, conflict, notFound } from '../../platform/errors.js';
import { authorsOf, type BibRecord } from '../../records/index.js';
import { recordChange } from '../events/record.js';
import type { EnqueueExtraction, PdfRow } from '../pdfs/store.js';
import { recordOfRow } from '../resources/resource-record.js';
import { LIMITS } from '../schemas.js';
import { lockWorkspaces, touchWorkspace } from '../store.js';
import {
  deleteResourceRows,
  holderOfWorkKey,
  lockResourcesOf,
  updateResourceRow,
  type ResourceChanges,
  type ResourceRow,
} from '../resources/store.js';
import { workKeyOf } from '../resources/work-key.js';
import {
  countAnnotationsOf,
  lockPdfRows,
  moveAnnotations,
  movePdf,
  removedFromWorkspace,
} from './store.js';

export interface MergeInput {
  keep: string;
  /** The resources merged into `keep` and removed, each named once, none of them `keep`. */
  merge: string[];
  /** The version of each resource named, as the client saw it (any it leaves out is not checked). */
  expectedVersions?: Record<string, number>;
}

export interface Merged {
  row: ResourceRow;
  merged: string[];
  /** The fields the kept resource took from the others (record fields, notes, tags, pdf…). */
  filled: string[];
  /** The blob keys of the merged resources' PDFs that were not kept: the caller's to forget after commit. */
  pdfKeys: string[];
}

const absent = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The kept record with each field it lacks taken from the first of the others that has it. */
function mergedRecord(kept: BibRecord, others: BibRecord[], filled: Set<string>): BibRecord {
  const record: BibRecord = { ...kept };
  if (!record.creators?.length) {
    const creators = others.find((other) => other.creators?.length)?.creators;
    if (creators) {
      record.creators = creators;
      filled.add('creators');
    }
  }
  const into = record as Record<string, unknown>;
  for (const other of others) {
    for (const [field, value] of Object.entries(other)) {
      if (field === 'creators' || !absent(into[field]) || absent(value)) continue;
      into[field] = value;
      filled.add(field);
    }
  }
  return record;
}

/** The notes, kept first, joined with a blank line; a text already there (the same words) is not repeated. */
function joinedNotes(kept: ResourceRow, others: ResourceRow[]): string {
  const texts = [kept.notes.trim()];
  for (const other of others) {
    const text = other.notes.trim();
    if (text && !texts.includes(text)) texts.push(text);
  }
  return texts.length === 1 ? kept.notes : texts.filter(Boolean).join('\n\n');
}

/** The tags, kept first; one already there in another case is not added again. */
function unitedTags(rows: ResourceRow[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of rows.flatMap((row) => row.tags)) {
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

/** Where each id was named in the body, for the error that names it. */
function fieldOf(input: MergeInput, id: string): string {
  return id === input.keep ? 'keep' : `merge.${input.merge.indexOf(id)}`;
}

/**
 * The named resources, locked in id order (two merges of one group take turns); a 404 naming the
 * first that was never in the workspace, a 409 when one was removed from it since (another merge won).
 */
async function lockNamed(tx: Tx, workspaceId: string, input: MergeInput): Promise<ResourceRow[]> {
  const ids = [input.keep, ...input.merge];
  const rows = await lockResourcesOf(tx, workspaceId, ids);
  if (rows.length === ids.length) return rows;
  const found = new Set(rows.map((row) => row.id));
  const missing = ids.filter((id) => !found.has(id));
  const removed = await removedFromWorkspace(tx, workspaceId, missing);
  const unknown = missing.find((id) => !removed.has(id));
  if (unknown)
    throw new ApiError('NOT_FOUND', 'Resource not found', {
      field: fieldOf(input, unknown),
      reason: 'not_found',
    });
  throw conflict(
    `Resource ${missing[0]} was removed from this workspace since you loaded it (merged or ` +
      `removed by someone else): nothing was merged; load the duplicates again`,
    { field: fieldOf(input, missing[0]!), reason: 'gone' },
  );
}

/** A 409 when a resource's version is not the one the client saw. */
function checkVersions(rows: ResourceRow[], expected: Record<string, number> = {}): void {
  for (const row of rows) {
    const seen = expected[row.id];
    if (seen === undefined || seen === row.version) continue;
    throw conflict(
      `Resource ${row.id} changed since you loaded it (it is at version ${row.version}, you saw ${seen}): nothing was merged; load the duplicates again`,
      { field: `expectedVersions.${row.id}`, reason: 'changed' },
    );
  }
}

/** Which PDF the kept resource ends with: its own, else the first of the others' (in the order named). */
function pdfPlan(pdfs: PdfRow[], input: MergeInput) {
  const byResource = new Map(pdfs.map((pdf) => [pdf.resourceId, pdf]));
  const own = byResource.get(input.keep);
  const moved = own
    ? undefined
    : input.merge.map((id) => byResource.get(id)).find((pdf) => pdf !== undefined);
  const kept = own ?? moved;
  const forgotten = pdfs
    .filter((pdf) => pdf !== kept && pdf.blobKey !== kept?.blobKey)
    .map((pdf) => pdf.blobKey);
  return { moved, forgotten };
}

/**
 * Merges `input.merge` into `input.keep`, all of the workspace, in one transaction (see the module's
 * comment). Refused with a 409, nothing changed, when a resource changed since the client saw it or
 * was removed, or when the kept one would pass a limit (notes, tags, annotations).
 */
export async function mergeResources(
  db: Db,
  workspaceId: string,
  input: MergeInput,
  actorId: string,
  enqueueExtraction: EnqueueExtraction,
): Promise<Merged> {
  return db.transaction(async (tx) => {
    // The workspace first, as adding and changing do: a work key taken meanwhile is seen here.
    if ((await lockWorkspaces(tx, [workspaceId])).length === 0) throw notFound('Workspace');
    const locked = await lockNamed(tx, workspaceId, input);
    checkVersions(locked, input.expectedVersions);
    const byId = new Map(locked.map((row) => [row.id, row]));
    const kept = byId.get(input.keep)!;
    const others = input.merge.map((id) => byId.get(id)!);
    const all = [kept, ...others];

    const filled = new Set<string>();
    const record = mergedRecord(
      recordOfRow(kept),
      others.map((row) => recordOfRow(row)),
      filled,
    );
    const changes: ResourceChanges = { record, authors: authorsOf(record) };
    const title = kept.title.trim() ? kept.title : others.find((row) => row.title.trim())?.title;
    if (title !== undefined && title !== kept.title) {
      changes.title = title;
      filled.add('title');
    }
    const url = kept.url ?? others.find((row) => row.url)?.url ?? null;
    if (url !== kept.url) {
      changes.url = url;
      filled.add('url');
    }
    // `data` (free-form) takes the keys it lacks too, while it stays within its bound.
    const data = Object.assign({}, ...[...others].reverse().map((row) => row.data), kept.data);
    if (
      Object.keys(data).length > Object.keys(kept.data).length &&
      Buffer.byteLength(JSON.stringify(data)) <= LIMITS.dataBytes
    )
      changes.data = data;
    const notes = joinedNotes(kept, others);
    if (notes.length > LIMITS.notes)
      throw conflict(
        `The notes joined would be ${notes.length.toLocaleString('en-US')} characters; a ` +
          `resource holds at most ${LIMITS.notes.toLocaleString('en-US')}: shorten them first ` +
          `(nothing was merged)`,
        { field: 'merge', reason: 'notes_too_long' },
      );
    if (notes !== kept.notes) {
      changes.notes = notes;
      filled.add('notes');
    }
    const tags = unitedTags(all);
    if (tags.length > LIMITS.tags)
      throw conflict(
        `The tags united would be ${tags.length}; a resource holds at most ${LIMITS.tags}: ` +
          `remove some first (nothing was merged)`,
        { field: 'merge', reason: 'too_many_tags' },
      );
    if (tags.length !== kept.tags.length) {
      changes.tags = tags;
      filled.add('tags');
    }
    if (['doi', 'arxivId', 'pmid', 'url'].some((field) => filled.has(field))) {
      const workKey = workKeyOf({
        doi: record.doi,
        arxivId: record.arxivId,
        pmid: record.pmid,
        url,
      });
      if (workKey !== null || kept.resourceId === null) changes.workKey = workKey;
    }

    if ((await countAnnotationsOf(tx, [...byId.keys()])) > LIMITS.annotationsPerResource)
      throw conflict(
        `Together these resources hold more than ${LIMITS.annotationsPerResource} annotations, ` +
          `the most one resource holds: remove some first (nothing was merged)`,
        { field: 'merge', reason: 'too_many_annotations' },
      );
    if ((await moveAnnotations(tx, input.merge, kept.id)) > 0) filled.add('annotations');
    const pdf = pdfPlan(await lockPdfRows(tx, [...byId.keys()]), input);
    const movedPdf = pdf.moved ? await movePdf(tx, pdf.moved, kept.id) : null;
    if (movedPdf) filled.add('pdf');
    await deleteResourceRows(tx, workspaceId, input.merge);

    if (changes.workKey && changes.workKey !== kept.workKey) {
      const holder = await holderOfWorkKey(tx, workspaceId, changes.workKey, kept.id);
      if (holder)
        throw conflict(`Resource ${holder} of this workspace is this work already`, {
          field: 'keep',
          reason: 'duplicate',
        });
    }
    const row = await updateResourceRow(tx, kept.id, changes, actorId);
    if (!row) throw notFound('Resource');
    await touchWorkspace(tx, workspaceId);
    await recordChange(tx, {
      type: 'resource.removed',
      workspaceId,
      actorId,
      details: { count: input.merge.length, resourceIds: input.merge, mergedInto: kept.id },
    });
    await recordChange(tx, {
      type: 'resource.updated',
      workspaceId,
      actorId,
      resourceId: kept.id,
      details: { title: row.title, fields: [...filled], mergedFrom: input.merge },
    });
    // A PDF still waiting for its text: the job was for the resource it came from.
    if (movedPdf?.extraction === 'pending') await enqueueExtraction(tx, movedPdf);
    return { row, merged: input.merge, filled: [...filled], pdfKeys: pdf.forgotten };
  });
}
