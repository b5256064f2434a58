/**
 * Members and invitations of a workspace, and the invitation link's two public-facing routes.
 * Each handler: validated input → user → load → authorize (policy.ts) → do → present.
 */
import { hasMoreAfter } from '../../platform/reply-shapes.js';
import { mailerFor } from '../../platform/mail/index.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { hashToken } from '../../platform/crypto.js';
import { conflict, notFound } from '../../platform/errors.js';
import { ErrorResponse, PUBLIC } from '../../platform/openapi.js';
import { authorize, roleMay } from '../policy.js';
import { deletedReply } from '../presenters.js';
import { DeletedResponse, IdParams, ListQuery, workspaceErrors } from '../schemas.js';
import { loadWorkspace } from '../store.js';
import {
  acceptInvitation,
  addMember,
  changeMemberRole,
  inviteMember,
  removeMember,
} from './commands.js';
import { presentInvitation, presentMember } from './presenters.js';
import {
  InvitationAcceptResponse,
  InvitationCreateBody,
  InvitationListResponse,
  InvitationParams,
  InvitationPreviewResponse,
  InvitationResponse,
  InvitationTokenParams,
  MEMBER_LIMITS,
  MemberAddBody,
  MemberListResponse,
  MemberParams,
  MemberResponse,
  MemberUpdateBody,
} from './schemas.js';
import {
  findAccount,
  findInvitationInWorkspace,
  listInvitations,
  listMembers,
  previewInvitation,
  revokeInvitationRow,
} from './store.js';

const tags = ['members'];

export async function memberRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    '/api/workspaces/:id/members',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listMembers',
        summary:
          'Members of a workspace with their names and roles: the owner first, ' +
          'then the others as they joined (any member may list them); e-mail ' +
          'addresses to the owner only',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: MemberListResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace, role } = authorize(
        user,
        'readMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      const { rows, total } = await listMembers(db, workspace.id, request.query);
      const withEmail = roleMay(role, 'workspace', 'readMemberEmails');
      return {
        members: rows.map((row) => presentMember(row, withEmail)),
        total,
        hasMore: hasMoreAfter(request.query.offset, rows.length, total),
      };
    },
  );

  app.post(
    '/api/workspaces/:id/members',
    {
      config: { auth: 'required', rateLimit: ['user', 'invitation'] },
      schema: {
        tags,
        operationId: 'addMember',
        summary: 'Add the account with this e-mail address as editor or viewer (owner only)',
        description:
          `An address without an account is a 404 naming \`email\`: invite it ` +
          `instead (\`POST /api/workspaces/{id}/invitations\`). Someone already a ` +
          `member is a 409; a workspace holds at most ${MEMBER_LIMITS.members} ` +
          `members, its owner included. Counted with the invitations a user sends ` +
          `(RATE_LIMIT_INVITATIONS_PER_HOUR).`,
        params: IdParams,
        body: MemberAddBody,
        response: { 201: MemberResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      const member = await addMember(db, workspace.id, user, request.body.email, request.body.role);
      return reply.status(201).send({ member: presentMember(member, true) });
    },
  );

  app.patch(
    '/api/workspaces/:id/members/:userId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateMember',
        summary:
          "Change a member's role (owner only); role `owner` transfers ownership in one transaction and the previous owner becomes an editor",
        params: MemberParams,
        body: MemberUpdateBody,
        response: { 200: MemberResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      const member = await changeMemberRole(
        db,
        workspace.id,
        user,
        request.params.userId,
        request.body.role,
      );
      // Asked by the owner (manageMembers), who reads e-mail addresses.
      return { member: presentMember(member, true) };
    },
  );

  app.delete(
    '/api/workspaces/:id/members/:userId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'removeMember',
        summary:
          'Remove a member (owner only), or leave the workspace (your own user id, any member); the owner cannot leave (409): transfer ownership first',
        params: MemberParams,
        response: { 200: DeletedResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const leaving = request.params.userId === user.id;
      const { workspace } = authorize(
        user,
        leaving ? 'readMembers' : 'manageMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      await removeMember(db, workspace.id, workspace.ownerId, request.params.userId, user);
      return deletedReply(request.params.userId);
    },
  );

  app.get(
    '/api/workspaces/:id/invitations',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listInvitations',
        summary:
          'Invitations of a workspace, newest first, each with its status: pending, accepted, revoked or expired (owner only)',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: InvitationListResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      const { rows, total } = await listInvitations(db, workspace.id, request.query);
      const now = new Date();
      return {
        invitations: rows.map((row) => presentInvitation(row, now)),
        total,
        hasMore: hasMoreAfter(request.query.offset, rows.length, total),
      };
    },
  );

  app.post(
    '/api/workspaces/:id/invitations',
    {
      config: { auth: 'required', rateLimit: ['user', 'invitation'] },
      schema: {
        tags,
        operationId: 'createInvitation',
        summary:
          `Invite an e-mail address as editor or viewer (owner only): a mail with ` +
          `a single-use link to the app's /invitations/{token} page, ` +
          `valid ${MEMBER_LIMITS.invitationDays} days`,
        description:
          `The token is stored hashed. Someone already a member is a 409, as are ` +
          `more than ${MEMBER_LIMITS.pendingInvitations} invitations waiting at ` +
          `once. Throttled per inviter (RATE_LIMIT_INVITATIONS_PER_HOUR, 30 an ` +
          `hour, with members added directly): past it a 429 with Retry-After.`,
        params: IdParams,
        body: InvitationCreateBody,
        response: { 201: InvitationResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      const inviter = await findAccount(db, user.id);
      if (!inviter) throw notFound('User');
      const invitation = await inviteMember(
        {
          db,
          mailer: mailerFor(ctx.platform.mailTransport, request.log),
          appOrigin: ctx.config.appOrigin,
        },
        workspace,
        { id: user.id, name: inviter.name },
        request.body.email,
        request.body.role,
      );
      return reply.status(201).send({ invitation: presentInvitation(invitation) });
    },
  );

  app.delete(
    '/api/workspaces/:id/invitations/:invitationId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke a pending invitation (owner only): its link opens nothing from now on',
        params: InvitationParams,
        response: { 200: DeletedResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageMembers',
        await loadWorkspace(db, request.params.id, user),
      );
      const revoked = await revokeInvitationRow(db, workspace.id, request.params.invitationId);
      if (!revoked) {
        const known = await findInvitationInWorkspace(
          db,
          workspace.id,
          request.params.invitationId,
        );
        if (!known) throw notFound('Invitation');
        const status = presentInvitation(known).status;
        throw conflict(`This invitation is ${status}; only a pending one can be revoked`, {
          field: 'invitationId',
          reason: status,
        });
      }
      return deletedReply(revoked.id);
    },
  );

  app.get(
    '/api/invitations/:token',
    {
      config: { auth: 'none', rateLimit: ['sharePage'] },
      schema: {
        tags,
        operationId: 'getInvitation',
        summary:
          "What an invitation link offers, for its page: the workspace's name, " +
          "the inviter's name and the role — nothing else; 404 once it is used, " +
          'revoked or expired',
        security: PUBLIC,
        params: InvitationTokenParams,
        response: {
          200: InvitationPreviewResponse,
          400: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      const preview = await previewInvitation(db, hashToken(request.params.token));
      if (!preview) throw notFound('Invitation');
      return preview;
    },
  );

  app.post(
    '/api/invitations/:token/accept',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary:
          "Join the invitation's workspace with its role (signed in; the account's e-mail address need not be the one invited)",
        description:
          'Single use: the first accept joins, any later one (or one racing it) ' +
          'is a 404, as is a revoked or expired invitation. Someone already a ' +
          'member keeps the role they have.',
        params: InvitationTokenParams,
        response: { 200: InvitationAcceptResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return acceptInvitation(db, request.params.token, user);
    },
  );
}
