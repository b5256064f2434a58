/**
 * One line of a workspace's activity log (GET …/activity), such as `Ana added ‘Attention is all you
 * need’` or `You made Grace a viewer`: who (“You” for the reader, “The service” for its own work, as a
 * PDF's text read), what, and what it was about as the change recorded it then (a title, a role, a count).
 */
import type { components } from '../../api/schema';

export type ActivityItem = components['schemas']['ActivityItem'];

const NAME_MAX = 40;
const TITLE_MAX = 80;
const ROLE_WORDS: Record<string, string> = {
  owner: 'the owner',
  editor: 'an editor',
  viewer: 'a viewer',
};

const shorten = (text: string, max: number) => {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > max ? `${trimmed.slice(0, max - 1).trimEnd()}…` : trimmed;
};
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;
const number = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const resources = (count: number) => `${count} ${count === 1 ? 'resource' : 'resources'}`;

export function activityLine(item: ActivityItem, me: string): string {
  const details = item.details;
  const who = !item.actor
    ? 'The service'
    : item.actor.id === me
      ? 'You'
      : shorten(item.actor.name, NAME_MAX) || 'Someone';
  const title = text(details.title);
  const quoted = title ? `‘${shorten(title, TITLE_MAX)}’` : null;
  const count = number(details.count);
  const role = ROLE_WORDS[text(details.role) ?? ''] ?? null;
  const name = text(details.name);
  const whom = item.userId === me ? 'you' : name ? shorten(name, NAME_MAX) : 'a member';
  switch (item.type) {
    case 'workspace.updated':
      return name && Array.isArray(details.fields) && details.fields.includes('name')
        ? `${who} renamed the workspace ‘${shorten(name, TITLE_MAX)}’`
        : `${who} changed the workspace’s details`;
    case 'workspace.deleted':
      return `${who} deleted the workspace`;
    case 'resource.added':
      if (quoted) return `${who} added ${quoted}`;
      return count !== null
        ? `${who} added ${resources(count)}${details.via === 'import' ? ' by import' : ''}`
        : `${who} added a resource`;
    case 'resource.updated':
      if (!item.actor && quoted) return `The record of ${quoted} was filled in from its PDF`;
      if (quoted) return `${who} edited ${quoted}`;
      return count !== null ? `${who} edited ${resources(count)}` : `${who} edited a resource`;
    case 'resource.removed':
      if (quoted) return `${who} removed ${quoted}`;
      return count !== null ? `${who} removed ${resources(count)}` : `${who} removed a resource`;
    case 'annotation.added':
      return `${who} added an annotation`;
    case 'annotation.updated':
      return `${who} edited an annotation`;
    case 'annotation.removed':
      return `${who} removed an annotation`;
    case 'pdf.updated':
      switch (details.state) {
        case 'attached':
          return `${who} attached a PDF`;
        case 'removed':
          return `${who} removed a PDF`;
        case 'ready':
          return 'A PDF was read and can be searched';
        case 'failed':
          return 'A PDF could not be read';
        default:
          return `${who} changed a PDF`;
      }
    case 'member.added':
      if (item.actor && item.userId === item.actor.id)
        return `${who} joined${role ? ` as ${role}` : ''}`;
      return `${who} added ${whom}${role ? ` as ${role}` : ''}`;
    case 'member.updated':
      if (text(details.role) === 'owner') return `${who} handed ownership to ${whom}`;
      return role ? `${who} made ${whom} ${role}` : `${who} changed the role of ${whom}`;
    case 'member.removed':
      // The account was deleted: it is gone as actor too, so the line names them from the log's details.
      if (details.accountDeleted === true)
        return `${name ? shorten(name, NAME_MAX) : 'A member'} left the workspace (their account was deleted)`;
      return item.actor && item.userId === item.actor.id
        ? `${who} left the workspace`
        : `${who} removed ${whom}`;
    case 'share.updated':
      switch (details.change) {
        case 'created':
          return `${who} created ${details.readOnly === false ? 'an editable' : 'a read-only'} share link`;
        case 'revoked':
          return `${who} revoked a share link`;
        case 'resumed':
          return `${who} resumed a share link`;
        default:
          return `${who} changed the share links`;
      }
  }
}
