/**
 * What one change of a workspace, as GET /api/workspaces/{id}/events streams it (`event: change`),
 * means for the open page: which cached reads it makes stale (and nothing else), what it says to a
 * screen reader, and whether the page must be left. Pure, so that it is tested without a browser.
 */
import type { QueryKey } from '@tanstack/react-query';
import { z } from 'zod/mini';
import type { components } from '../../api/schema';
import {
  activityKey,
  ANNOTATIONS_KEY,
  annotationsKey,
  invitationsKey,
  membersKey,
  resourcesKey,
  sharesKey,
  workspaceKey,
  WORKSPACES_KEY,
} from '../../api/workspace-cache';
import type { Role } from '../../lib/workspace-role';

/** The kinds of change the service names: the activity log's and the stream's are one list (src/workspaces/events). */
type ChangeType = components['schemas']['ActivityItem']['type'];
/** Typed by the API document, so a kind the service adds or drops fails the type check here. */
const KNOWN_TYPES: Record<ChangeType, true> = {
  'workspace.updated': true,
  'workspace.deleted': true,
  'resource.added': true,
  'resource.updated': true,
  'resource.removed': true,
  'annotation.added': true,
  'annotation.updated': true,
  'annotation.removed': true,
  'pdf.updated': true,
  'member.added': true,
  'member.updated': true,
  'member.removed': true,
  'share.updated': true,
};
export const CHANGE_TYPES = Object.keys(KNOWN_TYPES) as [ChangeType, ...ChangeType[]];

/** Bounds on what is read from the stream: ids are uuids or decimal numbers, names are short. */
const Id = z.string().check(z.minLength(1), z.maxLength(64));
const ChangeSchema = z.object({
  id: Id,
  workspaceId: Id,
  type: z.enum(CHANGE_TYPES),
  actor: z.nullable(z.object({ id: Id, name: z.string().check(z.maxLength(500)) })),
  resourceId: z.optional(Id),
  annotationId: z.optional(Id),
  userId: z.optional(Id),
  at: z.string().check(z.maxLength(64)),
});
export type WorkspaceChange = z.infer<typeof ChangeSchema>;

/** A `change` event's data, or null when it is not one (an unknown type from a newer service is ignored). */
export function parseChange(data: unknown): WorkspaceChange | null {
  const parsed = ChangeSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** The stream's address; `lastEventId` resumes after the last change seen by an earlier stream of this page. */
export function eventsUrl(workspaceId: string, lastEventId: string | null): string {
  const path = `/api/workspaces/${encodeURIComponent(workspaceId)}/events`;
  return lastEventId ? `${path}?${new URLSearchParams({ lastEventId }).toString()}` : path;
}

/**
 * The cached reads `change` makes stale: each key is a prefix of every page, sort and filter of that
 * read. `me` is the signed-in user (a change of their own membership changes their role, shown on the
 * workspace and in the list of workspaces).
 */
export function keysTouchedBy(change: WorkspaceChange, me: string): QueryKey[] {
  const id = change.workspaceId;
  // What leaves the page: only the list of workspaces; the workspace read again now would be a 404.
  if (leaves(change, me)) return [WORKSPACES_KEY];
  const keys: QueryKey[] = [activityKey(id)];
  switch (change.type) {
    case 'workspace.updated':
      keys.push(WORKSPACES_KEY, workspaceKey(id));
      break;
    case 'resource.added':
    case 'resource.removed':
      // The counts: the workspace's and the list's.
      keys.push(WORKSPACES_KEY, workspaceKey(id), resourcesKey(id));
      break;
    case 'resource.updated':
    case 'pdf.updated':
      keys.push(resourcesKey(id));
      break;
    case 'annotation.added':
    case 'annotation.updated':
    case 'annotation.removed':
      // The library list shows a resource's annotations; the PDF viewer reads them on their own.
      keys.push(resourcesKey(id));
      if (change.resourceId) keys.push(annotationsKey(change.resourceId));
      break;
    case 'member.added':
    case 'member.updated':
    case 'member.removed':
      // Someone who accepts an invitation leaves the list of invitations waiting.
      keys.push(membersKey(id), invitationsKey(id));
      if (change.userId === me) keys.push(WORKSPACES_KEY, workspaceKey(id));
      break;
    case 'share.updated':
      keys.push(sharesKey(id), WORKSPACES_KEY);
      break;
    case 'workspace.deleted':
      break;
  }
  return keys;
}

/** Everything cached of the workspace: after `event: reset`, or a gap a new stream cannot resume across. */
export function everyKeyOf(workspaceId: string): QueryKey[] {
  return [
    WORKSPACES_KEY,
    workspaceKey(workspaceId),
    resourcesKey(workspaceId),
    // Which resources' annotations are cached is not known here: all of them (the viewer reads one resource's).
    ANNOTATIONS_KEY,
    membersKey(workspaceId),
    invitationsKey(workspaceId),
    sharesKey(workspaceId),
    activityKey(workspaceId),
  ];
}

/**
 * Why the page must be left, as the workspace list says it (null: it need not be left): the workspace
 * was deleted, or the user was removed from it. `''` when the user did it themselves, elsewhere or on
 * this page, whose own flow says so.
 */
export function leaveMessage(
  change: WorkspaceChange,
  me: string,
  workspaceName: string,
): string | null {
  if (!leaves(change, me)) return null;
  const byMe = change.actor?.id === me;
  const who = change.actor ? shortName(change.actor.name) : 'Someone';
  if (change.type === 'workspace.deleted') return byMe ? '' : `${who} deleted ${workspaceName}.`;
  return byMe ? '' : `${who} removed you from ${workspaceName}.`;
}

/** Whether the user can no longer open the workspace after `change`. */
const leaves = (change: WorkspaceChange, me: string) =>
  change.type === 'workspace.deleted' || (change.type === 'member.removed' && change.userId === me);

/** What the page knows, after reading again, about what a change is about. */
export interface ChangeContext {
  me: string;
  /** The resource's title, when the change names a resource the page has (or had) in its list. */
  title: string | null;
  /** The user's role as the workspace now says. */
  myRole: Role | null;
}

const NAME_MAX = 40;
const TITLE_MAX = 80;
const shorten = (text: string, max: number) => {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > max ? `${trimmed.slice(0, max - 1).trimEnd()}…` : trimmed;
};
const shortName = (name: string) => shorten(name, NAME_MAX) || 'Someone';
const ROLE_WORDS: Record<Role, string> = {
  owner: 'the owner',
  editor: 'an editor',
  viewer: 'a viewer',
};

/**
 * The short sentence announced (politely) for another member's change, such as
 * `Ana added ‘Attention is all you need’`; null for the user's own changes, for the service's own work
 * (a PDF's text extracted, which the list shows) and for what leaves the page (`leaveMessage`).
 */
export function announcementFor(change: WorkspaceChange, context: ChangeContext): string | null {
  if (!change.actor || change.actor.id === context.me) return null;
  const who = shortName(change.actor.name);
  const title = context.title ? `‘${shorten(context.title, TITLE_MAX)}’` : null;
  switch (change.type) {
    case 'workspace.updated':
      return `${who} changed the workspace’s details`;
    case 'workspace.deleted':
      return null;
    // Without a resourceId, the change is about several (an import, a move, a bulk change).
    case 'resource.added':
      return `${who} added ${title ?? (change.resourceId ? 'a resource' : 'resources')}`;
    case 'resource.updated':
      return `${who} edited ${title ?? (change.resourceId ? 'a resource' : 'resources')}`;
    case 'resource.removed':
      return `${who} removed ${title ?? (change.resourceId ? 'a resource' : 'resources')}`;
    case 'annotation.added':
      return title ? `${who} annotated ${title}` : `${who} added an annotation`;
    case 'annotation.updated':
      return title ? `${who} edited an annotation on ${title}` : `${who} edited an annotation`;
    case 'annotation.removed':
      return title ? `${who} removed an annotation from ${title}` : `${who} removed an annotation`;
    case 'pdf.updated':
      return title ? `${who} changed the PDF of ${title}` : `${who} changed a PDF`;
    case 'member.added':
      return change.userId === change.actor.id
        ? `${who} joined the workspace`
        : `${who} added a member`;
    case 'member.updated':
      if (change.userId !== context.me) return `${who} changed a member’s role`;
      return context.myRole
        ? `${who} made you ${ROLE_WORDS[context.myRole]}`
        : `${who} changed your role`;
    case 'member.removed':
      if (change.userId === context.me) return null;
      return change.userId === change.actor.id
        ? `${who} left the workspace`
        : `${who} removed a member`;
    case 'share.updated':
      return `${who} changed the share links`;
  }
}
