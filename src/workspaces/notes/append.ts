/**
 * Appending to a saved resource's notes (a summary saved from the summary dialog): the row is locked
 * and read in the transaction that writes it, so an edit saved meanwhile is kept and the text comes
 * after it; past the notes' limit nothing is written and the refusal says by how much.
 */
import type { Db } from '../../platform/db/client.js';
import { conflict, notFound } from '../../platform/errors.js';
import { versionMatches, type ExpectedVersions } from '../../platform/versions.js';
import { recordChange } from '../events/record.js';
import { LIMITS } from '../schemas.js';
import { touchWorkspace, type Versioned } from '../store.js';
import { lockResourcesOf, updateResourceRow, type ResourceRow } from '../resources/store.js';

/** Between the notes there were and the text appended: one blank line. */
const SEPARATOR = '\n\n';

const count = (n: number) => n.toLocaleString('en-US');

/** `expected`: the versions If-Match accepts, checked on the locked row (the resource as it is now when it does not match). */
export async function appendToNotes(
  db: Db,
  resource: ResourceRow,
  text: string,
  actorId: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<ResourceRow>> {
  return db.transaction(async (tx) => {
    const [current] = await lockResourcesOf(tx, resource.workspaceId, [resource.id]);
    if (!current) throw notFound('Resource');
    if (!versionMatches(expected, current.version)) return { stale: current };
    const notes = current.notes.trim() ? `${current.notes.trimEnd()}${SEPARATOR}${text}` : text;
    if (notes.length > LIMITS.notes) {
      throw conflict(
        `The notes would be ${count(notes.length)} ` +
          `characters, ${count(notes.length - LIMITS.notes)} more than ` +
          `the ${count(LIMITS.notes)} they may hold. Shorten the notes first, then save again.`,
        { field: 'text', reason: 'notes_full' },
      );
    }
    const updated = await updateResourceRow(tx, current.id, { notes }, actorId);
    if (!updated) throw notFound('Resource');
    await touchWorkspace(tx, updated.workspaceId);
    await recordChange(tx, {
      type: 'resource.updated',
      workspaceId: updated.workspaceId,
      actorId,
      resourceId: updated.id,
      details: { title: updated.title, fields: ['notes'] },
    });
    return { row: updated };
  });
}
