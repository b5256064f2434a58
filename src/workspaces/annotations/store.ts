/** Queries of annotations. Rows out; shaping is the presenters' job. */
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { isAnyOf, preparedStatement, type Db, type Tx } from '../../platform/db/client.js';
import { annotations, workspaceResources, workspaces } from '../../platform/db/schema.js';
import { notFound } from '../../platform/errors.js';
import type { ExpectedVersions } from '../../platform/versions.js';
import { NOT_FOUND_LABEL, type Actor, type AnnotationSubject } from '../policy.js';
import { roleIn, versionIs, type Page, type Versioned } from '../store.js';
import type { AnnotationColor } from './colors.js';

/** An annotation's columns without `search` (see store.ts: the text-search document is for library search's SQL). */
const { search: _annotationSearch, ...annotationColumns } = getTableColumns(annotations);
export type AnnotationRow = Omit<typeof annotations.$inferSelect, 'search'>;
/** An annotation with its author's name, for members' views (the public share page names nobody). */
export type AuthoredAnnotationRow = AnnotationRow & { authorName: string | null };
const authoredAnnotationColumns = {
  ...annotationColumns,
  authorName: sql<string | null>`(select u.name from users u where u.id = ${annotations.userId})`,
};

// `= any(array)` rather than `in ($1, …, $n)`: one statement whatever the number of resources.
const annotationsStatement = preparedStatement((db) =>
  db
    .select(authoredAnnotationColumns)
    .from(annotations)
    .where(sql`${annotations.resourceId} = any(${sql.placeholder('resourceIds')}::uuid[])`)
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .prepare('rw_resources_annotations'),
);
/** Annotations of several resources at once, oldest first, grouped by resource id. */
export async function annotationsByResource(
  db: Db,
  resourceIds: string[],
): Promise<Map<string, AuthoredAnnotationRow[]>> {
  const grouped = new Map<string, AuthoredAnnotationRow[]>();
  if (resourceIds.length === 0) return grouped;
  // A PostgreSQL array literal of the ids (uuids from the database, so nothing to quote).
  const rows = await annotationsStatement(db).execute({
    resourceIds: `{${resourceIds.join(',')}}`,
  });
  for (const row of rows) {
    const list = grouped.get(row.resourceId) ?? [];
    list.push(row);
    grouped.set(row.resourceId, list);
  }
  return grouped;
}

export interface AnnotationPreview {
  /** The oldest `perResource` annotations, oldest first. */
  shown: AnnotationRow[];
  total: number;
}

/**
 * The first few annotations of each resource and how many it has, in one query: the public share page
 * shows a bounded number however many there are.
 */
export async function annotationPreviews(
  db: Db,
  resourceIds: string[],
  perResource: number,
): Promise<Map<string, AnnotationPreview>> {
  const previews = new Map<string, AnnotationPreview>();
  if (resourceIds.length === 0) return previews;
  const ranked = db
    .select({
      ...annotationColumns,
      position:
        sql<number>`row_number() over (partition by ${annotations.resourceId} order by ${annotations.createdAt}, ${annotations.id})`.as(
          'position',
        ),
      total: sql<number>`(count(*) over (partition by ${annotations.resourceId}))::int`.as('total'),
    })
    .from(annotations)
    .where(isAnyOf(annotations.resourceId, resourceIds))
    .as('ranked');
  const rows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.position} <= ${perResource}`)
    .orderBy(asc(ranked.createdAt), asc(ranked.id));
  for (const { position: _position, total, ...annotation } of rows) {
    const preview = previews.get(annotation.resourceId) ?? { shown: [], total };
    preview.shown.push(annotation);
    previews.set(annotation.resourceId, preview);
  }
  return previews;
}

export async function listAnnotations(
  db: Db,
  resourceId: string,
  page: Page,
): Promise<{ rows: AuthoredAnnotationRow[]; total: number }> {
  const rows = await db
    .select(authoredAnnotationColumns)
    .from(annotations)
    .where(eq(annotations.resourceId, resourceId))
    .orderBy(asc(annotations.createdAt), asc(annotations.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, total: await countAnnotations(db, resourceId) };
}

export async function countAnnotations(db: Db | Tx, resourceId: string): Promise<number> {
  return db.$count(annotations, eq(annotations.resourceId, resourceId));
}

export async function insertAnnotation(
  tx: Tx,
  values: {
    resourceId: string;
    userId: string;
    body: string;
    color: AnnotationColor;
    highlights: Record<string, unknown>;
  },
): Promise<AnnotationRow> {
  const [row] = await tx.insert(annotations).values(values).returning(annotationColumns);
  if (!row) throw new Error('Annotation insert returned no row');
  return row;
}

/** An annotation with the owner of the workspace it sits in. */
async function findAnnotationWithOwner(
  db: Db,
  id: string,
): Promise<{ annotation: AnnotationRow; ownerId: string; workspaceId: string } | null> {
  const [row] = await db
    .select({
      annotation: annotationColumns,
      ownerId: workspaces.ownerId,
      workspaceId: workspaces.id,
    })
    .from(annotations)
    .innerJoin(workspaceResources, eq(workspaceResources.id, annotations.resourceId))
    .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
    .where(eq(annotations.id, id));
  return row ?? null;
}

export async function loadAnnotation(db: Db, id: string, actor: Actor): Promise<AnnotationSubject> {
  const found = await findAnnotationWithOwner(db, id);
  if (!found) throw notFound(NOT_FOUND_LABEL.annotation);
  return {
    kind: 'annotation',
    annotation: found.annotation,
    ownerId: found.ownerId,
    role: await roleIn(db, found.workspaceId, found.ownerId, actor),
  };
}

async function findAnnotation(db: Db, id: string): Promise<AuthoredAnnotationRow | null> {
  const [row] = await db
    .select(authoredAnnotationColumns)
    .from(annotations)
    .where(eq(annotations.id, id));
  return row ?? null;
}

/** Changes an annotation, a new version, if its version is one `expected` names (any without If-Match); null when it is gone. */
export async function updateAnnotationRow(
  db: Db | Tx,
  id: string,
  changes: { body?: string; color?: AnnotationColor; highlights?: Record<string, unknown> },
  expected: ExpectedVersions = null,
): Promise<Versioned<AnnotationRow, AuthoredAnnotationRow> | null> {
  const [row] = await db
    .update(annotations)
    .set({ ...changes, version: sql`${annotations.version} + 1`, updatedAt: new Date() })
    .where(and(eq(annotations.id, id), versionIs(annotations.version, expected)))
    .returning(annotationColumns);
  if (row) return { row };
  const current = await findAnnotation(db, id);
  return current ? { stale: current } : null;
}

/** Deletes an annotation at a version `expected` names (any without If-Match); null when it is gone. */
export async function deleteAnnotationRow(
  db: Db | Tx,
  id: string,
  expected: ExpectedVersions = null,
): Promise<Versioned<{ id: string }, AuthoredAnnotationRow> | null> {
  const [deleted] = await db
    .delete(annotations)
    .where(and(eq(annotations.id, id), versionIs(annotations.version, expected)))
    .returning({ id: annotations.id });
  if (deleted) return { row: deleted };
  const current = await findAnnotation(db, id);
  return current ? { stale: current } : null;
}
