/**
 * Who may do what, decided by the action. Today a workspace, and everything in it, belongs to its owner
 * alone, and an annotation is changed only by its author; the table below is where roles will go.
 * Anyone not allowed is told the object does not exist (404), so that its existence does not leak
 * (docs/design.md, Errors).
 */
import { eq, type SQL } from 'drizzle-orm';
import { workspaces } from '../platform/db/schema.js';
import { notFound } from '../platform/errors.js';
import type { AnnotationRow, ResourceRow, WorkspaceWithCounts } from './store.js';

export type Action = 'read' | 'update' | 'delete' | 'share' | 'export' | 'annotate';

/** A loaded object with what the policy needs to know: the owner of its workspace (and, for an annotation, its author). */
export type Subject = WorkspaceSubject | ResourceSubject | AnnotationSubject;
export type WorkspaceSubject = { kind: 'workspace'; workspace: WorkspaceWithCounts; ownerId: string };
export type ResourceSubject = { kind: 'resource'; resource: ResourceRow; ownerId: string };
export type AnnotationSubject = { kind: 'annotation'; annotation: AnnotationRow; ownerId: string };

export interface Actor {
  id: string;
}

type Kind = Subject['kind'];
type Rule = (actor: Actor, subject: Subject) => boolean;

/** The actions each kind of object has. */
interface ActionsOn {
  workspace: 'read' | 'update' | 'delete' | 'share' | 'export';
  resource: 'read' | 'update' | 'annotate' | 'delete';
  annotation: 'update' | 'delete';
}
export type ActionOn<K extends Kind> = ActionsOn[K] & Action;

const ownsWorkspace: Rule = (actor, subject) => subject.ownerId === actor.id;
const wroteItInOwnWorkspace: Rule = (actor, subject) =>
  subject.kind === 'annotation' && subject.ownerId === actor.id && subject.annotation.userId === actor.id;

const POLICY: { [K in Kind]: Record<ActionsOn[K], Rule> } = {
  workspace: { read: ownsWorkspace, update: ownsWorkspace, delete: ownsWorkspace, share: ownsWorkspace, export: ownsWorkspace },
  resource: { read: ownsWorkspace, update: ownsWorkspace, annotate: ownsWorkspace, delete: ownsWorkspace },
  annotation: { update: wroteItInOwnWorkspace, delete: wroteItInOwnWorkspace },
};

export const NOT_FOUND_LABEL: Record<Kind, string> = { workspace: 'Workspace', resource: 'Resource', annotation: 'Annotation' };

/** The subject when `actor` may do `action` on it; else a 404, exactly as for an object that does not exist. */
export function authorize<S extends Subject>(actor: Actor, action: ActionOn<S['kind']>, subject: S): S {
  const rules: Partial<Record<Action, Rule>> = POLICY[subject.kind];
  if (!rules[action]?.(actor, subject)) throw notFound(NOT_FOUND_LABEL[subject.kind]);
  return subject;
}

/**
 * The workspaces `actor` may read, as a condition on the `workspaces` table, for the queries that span
 * many at once (library search, "in your library" on search results): the same rule as `read` in
 * POLICY above (src/library's tests check that nothing of another user's workspaces appears); a role
 * added there must be added here.
 */
export function readableWorkspaces(actor: Actor): SQL {
  return eq(workspaces.ownerId, actor.id);
}
