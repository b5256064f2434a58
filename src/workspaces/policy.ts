/**
 * Who may do what. A workspace, and everything in it, belongs to its owner alone; anyone else is told
 * it does not exist (404), so that its existence does not leak (docs/design.md, Errors).
 */
import type { SessionUser } from '../auth/sessions.js';
import { notFound } from '../platform/errors.js';

export type WorkspaceAction = 'read' | 'update' | 'delete' | 'share' | 'annotate';

export function authorizeWorkspace<T extends { ownerId: string }>(user: SessionUser, _action: WorkspaceAction, workspace: T | null): T {
  if (!workspace || workspace.ownerId !== user.id) throw notFound('Workspace');
  return workspace;
}

/** A resource is reached through its workspace: only the workspace's owner sees it. */
export function authorizeResource<T extends { ownerId: string }>(user: SessionUser, _action: WorkspaceAction, found: T | null): T {
  if (!found || found.ownerId !== user.id) throw notFound('Resource');
  return found;
}

/** Annotations are changed only by their author, in a workspace they own. */
export function authorizeAnnotation<T extends { ownerId: string; annotation: { userId: string } }>(
  user: SessionUser,
  _action: 'update' | 'delete',
  found: T | null,
): T {
  if (!found || found.ownerId !== user.id || found.annotation.userId !== user.id) throw notFound('Annotation');
  return found;
}
