/**
 * Who may do what: ONE table, by role in the workspace, decides every workspace-scoped route.
 * - `owner` (one per workspace, `workspaces.owner_id`): everything, and alone deletes the workspace,
 *   changes its settings, manages members, invitations and links.
 * - `editor`: adds, changes and removes resources, tags, notes, PDFs; imports; sees and creates read-only
 *   links that nobody joins through. A link through which someone joins (an editable one, or a read-only
 *   one open to joining) and its token are the owner's alone (`shareEditable`, `shareJoinable`,
 *   `readEditableShares`): a token an editor could read would let them undo the owner's removal or
 *   demotion of them (issue 33).
 * - `viewer`: reads and exports; annotates, and changes or deletes their own annotations only.
 * Members' e-mail addresses are the owner's to read (`readMemberEmails`); everyone sees names.
 * A member whose role does not allow the action gets a 403 naming the role needed; anyone who is not a
 * member is told the object does not exist (404), so that its existence does not leak
 * (docs/design.md, Errors). ROUTE_ACTIONS names the action each route asks for: the authorization
 * matrix test (policy.test.ts) iterates it and the table, and fails for a route missing from it.
 */
import { eq, or, sql, type SQL } from 'drizzle-orm';
import { workspaces } from '../platform/db/schema.js';
import { authorizationError, notFound } from '../platform/errors.js';
import type { WorkspaceWithCounts } from './store.js';
import type { ResourceRow } from './resources/store.js';
import type { AnnotationRow } from './annotations/store.js';

export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };

export type Action = ActionsOn[Kind];

/** A loaded object with what the policy needs to know: the asker's role in its workspace (null: not a member). */
export type Subject = WorkspaceSubject | ResourceSubject | AnnotationSubject;
export type WorkspaceSubject = {
  kind: 'workspace';
  workspace: WorkspaceWithCounts;
  ownerId: string;
  role: Role | null;
};
export type ResourceSubject = {
  kind: 'resource';
  resource: ResourceRow;
  ownerId: string;
  role: Role | null;
};
export type AnnotationSubject = {
  kind: 'annotation';
  annotation: AnnotationRow;
  ownerId: string;
  role: Role | null;
};

export interface Actor {
  id: string;
}

type Kind = Subject['kind'];

/** The actions each kind of object has. */
interface ActionsOn {
  workspace:
    | 'read'
    | 'export'
    | 'readMembers'
    | 'edit'
    | 'share'
    | 'shareEditable'
    | 'shareJoinable'
    | 'readShares'
    | 'readEditableShares'
    | 'readMemberEmails'
    | 'update'
    | 'delete'
    | 'manageShares'
    | 'manageMembers'
    | 'feed';
  resource: 'read' | 'annotate' | 'update' | 'delete';
  annotation: 'update' | 'delete';
}
export type ActionOn<K extends Kind> = ActionsOn[K];

/** The least role that may, and whether an annotation's author may whatever their role (`least: null`: the author alone). */
export interface Rule {
  least: Role | null;
  orAuthor?: true;
}

const viewer: Rule = { least: 'viewer' };
const editor: Rule = { least: 'editor' };
const owner: Rule = { least: 'owner' };

export const POLICY: { readonly [K in Kind]: Readonly<Record<ActionsOn[K], Rule>> } = {
  workspace: {
    read: viewer,
    export: viewer,
    readMembers: viewer,
    /** Its contents: add, import, bulk tag/move/remove, merge duplicates, PDFs. */
    edit: editor,
    /** Create a read-only share link that nobody joins through (the public page only). */
    share: editor,
    /** Create an editable share link: whoever signs in and opens it joins as editor, so it is the owner's to give. */
    shareEditable: owner,
    /** Create a read-only link that lets a signed-in visitor join as viewer (`allowJoin: true`), or change that. */
    shareJoinable: owner,
    /** List read-only links with their tokens. */
    readShares: editor,
    /** See editable links and their tokens in the list: through one, whoever holds it joins as editor. */
    readEditableShares: owner,
    /** See members' e-mail addresses (everyone sees their names). */
    readMemberEmails: owner,
    /** Its settings: name, description, isPublic. */
    update: owner,
    delete: owner,
    /** Revoke and resume share links, and turn joining through one on or off. */
    manageShares: owner,
    /** Members and invitations: add, change role, transfer, remove; invite, list and revoke invitations. */
    manageMembers: owner,
    /** Make, list and revoke one's own bibliography feeds (each member sees only their own). */
    feed: viewer,
  },
  resource: { read: viewer, annotate: viewer, update: editor, delete: editor },
  // Words are their author's: only they change them; editors and the owner may remove them (moderation).
  annotation: {
    update: { least: null, orAuthor: true },
    delete: { least: 'editor', orAuthor: true },
  },
};

/**
 * The action each workspace-scoped route asks of the table, by `METHOD path` as registered. Handlers
 * call `authorize` with the same action; the matrix test checks each route's answers against this.
 */
export const ROUTE_ACTIONS = {
  'GET /api/workspaces/:id': ['workspace', 'read'],
  'PATCH /api/workspaces/:id': ['workspace', 'update'],
  'DELETE /api/workspaces/:id': ['workspace', 'delete'],
  'GET /api/workspaces/:id/resources': ['workspace', 'read'],
  'POST /api/workspaces/:id/resources': ['workspace', 'edit'],
  'POST /api/workspaces/:id/resources/bulk/tag': ['workspace', 'edit'],
  'POST /api/workspaces/:id/resources/bulk/move': ['workspace', 'edit'],
  'POST /api/workspaces/:id/resources/bulk/remove': ['workspace', 'edit'],
  'PATCH /api/workspaces/:id/resources/:resourceId': ['resource', 'update'],
  // Only who may apply its changes asks the providers for them.
  'GET /api/workspaces/:id/resources/:resourceId/refresh': ['resource', 'update'],
  'DELETE /api/workspaces/:id/resources/:resourceId': ['resource', 'delete'],
  'POST /api/workspaces/:id/resources/:resourceId/notes': ['resource', 'update'],
  'PUT /api/workspaces/:id/resources/:resourceId/pdf': ['resource', 'update'],
  'GET /api/workspaces/:id/resources/:resourceId/pdf': ['resource', 'read'],
  'DELETE /api/workspaces/:id/resources/:resourceId/pdf': ['resource', 'update'],
  'GET /api/workspaces/:id/duplicates': ['workspace', 'read'],
  'POST /api/workspaces/:id/duplicates/merge': ['workspace', 'edit'],
  'GET /api/workspaces/:id/export': ['workspace', 'export'],
  'GET /api/workspaces/:id/cite': ['workspace', 'export'],
  'GET /api/workspaces/:id/suggestions': ['workspace', 'read'],
  'POST /api/workspaces/:id/import': ['workspace', 'edit'],
  'GET /api/workspaces/:id/share': ['workspace', 'readShares'],
  'POST /api/workspaces/:id/share': ['workspace', 'share'],
  'PATCH /api/workspaces/:id/share/:shareId': ['workspace', 'manageShares'],
  'DELETE /api/workspaces/:id/share/:shareId': ['workspace', 'manageShares'],
  'POST /api/workspaces/:id/share/:shareId/resume': ['workspace', 'manageShares'],
  'POST /api/workspaces/:id/feeds': ['workspace', 'feed'],
  'GET /api/workspaces/:id/feeds': ['workspace', 'feed'],
  'DELETE /api/workspaces/:id/feeds/:feedId': ['workspace', 'feed'],
  'GET /api/workspaces/:id/members': ['workspace', 'readMembers'],
  'POST /api/workspaces/:id/members': ['workspace', 'manageMembers'],
  'PATCH /api/workspaces/:id/members/:userId': ['workspace', 'manageMembers'],
  // Another member's removal; a member leaving (their own id) needs only to be a member.
  'DELETE /api/workspaces/:id/members/:userId': ['workspace', 'manageMembers'],
  'GET /api/workspaces/:id/invitations': ['workspace', 'manageMembers'],
  'POST /api/workspaces/:id/invitations': ['workspace', 'manageMembers'],
  'DELETE /api/workspaces/:id/invitations/:invitationId': ['workspace', 'manageMembers'],
  'GET /api/workspaces/:id/events': ['workspace', 'read'],
  'GET /api/workspaces/:id/activity': ['workspace', 'read'],
  'GET /api/resources/:id/annotations': ['resource', 'read'],
  'POST /api/resources/:id/annotations': ['resource', 'annotate'],
  'PATCH /api/annotations/:id': ['annotation', 'update'],
  'DELETE /api/annotations/:id': ['annotation', 'delete'],
} as const satisfies Record<string, readonly [Kind, Action]>;

/**
 * Where a route's body asks for more than the route's own action (ROUTE_ACTIONS): the handler authorizes
 * this action as well. The matrix test checks each, keyed `METHOD path (what in the body)`.
 */
export const BODY_ACTIONS = {
  'POST /api/workspaces/:id/share (readOnly: false)': ['workspace', 'shareEditable'],
  'POST /api/workspaces/:id/share (allowJoin: true)': ['workspace', 'shareJoinable'],
} as const satisfies Record<string, readonly [Kind, Action]>;

/**
 * Every secret a workspace holds, and the action that lets a role read it; `null`: no reply carries it
 * to anyone (an invitation's token goes only to the mailbox invited). The secrets test (policy.test.ts)
 * asks, as every role and as a removed member, a demoted one and a signed-out visitor, everything each
 * may read, and checks each secret is in the answers exactly when this table allows it.
 */
export const SECRETS = {
  editableShareTokens: ['workspace', 'readEditableShares'],
  readOnlyShareTokens: ['workspace', 'readShares'],
  invitationTokens: null,
  // A feed's URL is shown once, to its maker, in the reply that makes it; no later reply carries it.
  feedSecrets: null,
  memberEmails: ['workspace', 'readMemberEmails'],
  pdfDownloads: ['resource', 'read'],
} as const satisfies Record<string, readonly [Kind, Action] | null>;

export const NOT_FOUND_LABEL: Record<Kind, string> = {
  workspace: 'Workspace',
  resource: 'Resource',
  annotation: 'Annotation',
};

/** Whether `role` (the author of the object when `isAuthor`) may do what `rule` guards. */
export function allows(rule: Rule, role: Role, isAuthor: boolean): boolean {
  return (
    (rule.least !== null && ROLE_RANK[role] >= ROLE_RANK[rule.least]) ||
    (rule.orAuthor === true && isAuthor)
  );
}

/** Whether a member with `role` may do `action` (not about an annotation's author): for the parts of a reply some roles see. */
export function roleMay<K extends Kind>(role: Role, kind: K, action: ActionOn<K>): boolean {
  const rules: Record<string, Rule> = POLICY[kind];
  return allows(rules[action]!, role, false);
}

function refusal(rule: Rule, role: Role): Error {
  if (rule.least === null)
    return authorizationError(
      `Only its author may change this annotation; you are a${role === 'owner' ? 'n' : ''} ${role} of this workspace.`,
    );
  const article = (word: string) => (word === 'owner' || word === 'editor' ? 'an' : 'a');
  const author = rule.orAuthor ? ' (or to be its author)' : '';
  return authorizationError(
    `This needs the ${rule.least} role${author} in this workspace; you are ${article(role)} ${role}.`,
  );
}

/**
 * The subject when `actor` may do `action` on it; a 403 naming the role needed for a member whose role
 * does not allow it; a 404, exactly as for an object that does not exist, for anyone else.
 */
export function authorize<S extends Subject>(
  actor: Actor,
  action: ActionOn<S['kind']>,
  subject: S,
): S & { role: Role } {
  if (subject.role === null) throw notFound(NOT_FOUND_LABEL[subject.kind]);
  const rules: Record<string, Rule> = POLICY[subject.kind];
  const rule = rules[action]!;
  const isAuthor = subject.kind === 'annotation' && subject.annotation.userId === actor.id;
  if (!allows(rule, subject.role, isAuthor)) throw refusal(rule, subject.role);
  return { ...subject, role: subject.role };
}

/**
 * The workspaces `actor` may read, as a condition on the `workspaces` table, for the queries that span
 * many at once (library search, "in your library" on search results): every role may read (POLICY,
 * workspace.read), so: owned, or a member's.
 */
export function readableWorkspaces(actor: Actor): SQL {
  return or(
    eq(workspaces.ownerId, actor.id),
    sql`exists (select 1 from workspace_members m where m.workspace_id = ${workspaces.id} and m.user_id = ${actor.id})`,
  )!;
}
