/**
 * Optimistic concurrency on workspaces, resources and annotations (platform/versions.ts): the ETag
 * each reply carries, and the 412 a stale If-Match gets, with the object as it is now, presented as
 * a reply would present it.
 */
import type { FastifyReply } from 'fastify';
import type { Db } from '../platform/db/client.js';
import { preconditionFailed, type PreconditionFailedError } from '../platform/errors.js';
import { versionEtag, type VersionedKind } from '../platform/versions.js';
import { pdfsByResource } from './pdfs/store.js';
import type { Role } from './policy.js';
import { presentAnnotation, presentResource, presentWorkspace } from './presenters.js';
import { type WorkspaceWithCounts } from './store.js';
import { type ResourceRow } from './resources/store.js';
import { annotationsByResource, type AuthoredAnnotationRow } from './annotations/store.js';

/** Sets the reply's ETag to the version of the one object it returns. */
export function sendsVersion(
  reply: FastifyReply,
  kind: VersionedKind,
  row: { version: number },
): void {
  void reply.header('etag', versionEtag(kind, row.version));
}

/** Resources as replies show them: each with its annotations and PDF. */
export async function presentResources(db: Db, rows: ResourceRow[]) {
  const ids = rows.map((row) => row.id);
  const [annotations, pdfs] = await Promise.all([
    annotationsByResource(db, ids),
    pdfsByResource(db, ids),
  ]);
  return rows.map((row) => presentResource(row, annotations.get(row.id), pdfs.get(row.id)));
}

export function staleWorkspace(row: WorkspaceWithCounts, role: Role): PreconditionFailedError {
  return preconditionFailed(presentWorkspace(row, role), versionEtag('w', row.version));
}

export async function staleResource(db: Db, row: ResourceRow): Promise<PreconditionFailedError> {
  const [current] = await presentResources(db, [row]);
  return preconditionFailed(current, versionEtag('r', row.version));
}

export function staleAnnotation(row: AuthoredAnnotationRow): PreconditionFailedError {
  return preconditionFailed(presentAnnotation(row), versionEtag('a', row.version));
}
