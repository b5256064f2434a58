/**
 * A stored resource as the deep summary's input: the text of its ready PDF, read from the database, so
 * that summarising a paper one keeps needs no outbound fetch. Only for a user who may read it.
 */
import type { Db } from '../../platform/db/client.js';
import { recordOfRow } from '../resources/resource-record.js';
import { loadResourceIn } from './routes.js';
import { readyPdfText } from './store.js';

export interface StoredResourceText {
  title: string;
  abstract?: string;
  /** The PDF's text, pages separated by "\f"; absent when the resource has no ready PDF. */
  pdf?: { sha256: string; text: string };
}

/** The resource's title, abstract and PDF text; 404 (as for any object) when the user may not read it. */
export async function storedResourceText(
  db: Db,
  userId: string,
  workspaceId: string,
  resourceId: string,
): Promise<StoredResourceText> {
  const resource = await loadResourceIn(db, { id: userId }, workspaceId, resourceId, 'read');
  const abstract = recordOfRow(resource).abstract?.trim() || undefined;
  const ready = await readyPdfText(db, resource.id);
  return {
    title: resource.title,
    ...(abstract ? { abstract } : {}),
    ...(ready ? { pdf: { sha256: ready.sha256, text: ready.pages.join('\f') } } : {}),
  };
}
