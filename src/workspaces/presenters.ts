/**
 * The shapes of workspace replies, and the one place where Variant A and Variant B differ
 * (docs/design.md, Dialects): every object carries both variants' field names; where the envelopes
 * conflict, the dialect of the request (bearer → B, cookies → A) picks one.
 */
import type { Dialect } from '../platform/dialect.js';
import { presentPdf } from './pdfs/presenters.js';
import type { PdfRow } from './pdfs/store.js';
import type { Role } from './policy.js';
import { StoredHighlights } from './annotations/schemas.js';
import type { WorkspaceWithCounts } from './store.js';
import type { ResourceRow } from './resources/store.js';
import type { AnnotationRow } from './annotations/store.js';
import { annotationColorOf } from './annotations/colors.js';
import { recordOfRow, storedTypeOf } from './resources/resource-record.js';
import { presentCitationKey } from './citation-keys/presenters.js';

/** `role`: the asker's role in it (src/workspaces/policy.ts). */
export function presentWorkspace(row: WorkspaceWithCounts, role: Role) {
  return {
    id: row.id,
    name: row.name,
    title: row.name,
    description: row.description,
    ownerId: row.ownerId,
    isPublic: row.isPublic,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    resourceCount: row.resourceCount,
    _count: { resources: row.resourceCount, shares: row.shareCount },
    role,
    version: row.version,
  };
}
export type PresentedWorkspace = ReturnType<typeof presentWorkspace>;

/** The highlights as kept; a `pdf` member saved before anchors were checked, and not one, is left out. */
function presentHighlights(highlights: Record<string, unknown>): Record<string, unknown> {
  if (highlights.pdf === undefined || StoredHighlights.shape.pdf.safeParse(highlights.pdf).success)
    return highlights;
  const { pdf: _notAnAnchor, ...rest } = highlights;
  return rest;
}

/** `authorName`: the name of the account that wrote it (null when unknown to the query that read it). */
export function presentAnnotation(row: AnnotationRow & { authorName?: string | null }) {
  return {
    id: row.id,
    resourceId: row.resourceId,
    userId: row.userId,
    authorName: row.authorName ?? null,
    body: row.body,
    color: annotationColorOf(row.color),
    highlights: presentHighlights(row.highlights),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentResource(
  row: ResourceRow,
  annotations: AnnotationRow[] = [],
  pdf: PdfRow | null = null,
) {
  const createdAt = row.createdAt.toISOString();
  // A row from before records were kept (until the start-up upgrade reaches it) is read as it will be.
  const record = recordOfRow(row);
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    resourceId: row.resourceId,
    addedBy: row.addedBy,
    title: row.title,
    url: row.url,
    type: storedTypeOf(row.type, record, row.url),
    authors: row.authors,
    ...record,
    citationKey: presentCitationKey(row).citationKey,
    creators: record.creators ?? [],
    tags: row.tags,
    notes: row.notes,
    notesUpdatedBy: row.notesUpdatedBy,
    notesUpdatedAt: row.notesUpdatedAt?.toISOString() ?? null,
    data: row.data,
    year: row.year,
    venue: row.venue,
    version: row.version,
    createdAt,
    addedAt: createdAt,
    annotations: annotations.map(presentAnnotation),
    pdf: pdf ? presentPdf(pdf) : null,
  };
}
export type PresentedResource = ReturnType<typeof presentResource>;

// ---- envelopes: Variant A (cookies) vs Variant B (bearer) ----

export function workspaceListReply(
  dialect: Dialect,
  workspaces: PresentedWorkspace[],
  total: number,
) {
  return dialect === 'B' ? { workspaces, total } : workspaces;
}

export function workspaceReply(dialect: Dialect, workspace: PresentedWorkspace) {
  return dialect === 'B' ? { workspace } : workspace;
}

export function workspaceDetailReply(
  dialect: Dialect,
  workspace: PresentedWorkspace,
  resources: PresentedResource[],
) {
  return dialect === 'B' ? { workspace, resources } : { ...workspace, resources };
}

export function resourceReply(dialect: Dialect, resource: PresentedResource) {
  return dialect === 'B' ? { resource } : resource;
}

export function deletedReply(id: string) {
  return { success: true as const, id };
}
