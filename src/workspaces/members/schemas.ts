/** Members and invitations: request and reply shapes (they make the OpenAPI document). */
import { LIST_FIELDS } from '../../platform/reply-shapes.js';
import { z } from 'zod';
import { documentBody } from '../../platform/openapi.js';
import { RoleSchema } from '../schemas.js';

export const MEMBER_LIMITS = {
  /** Members of one workspace, its owner included. */
  members: 100,
  /** Invitations of one workspace waiting for an answer at once. */
  pendingInvitations: 50,
  invitationDays: 7,
} as const;

const DateTime = z.iso.datetime();
const MemberEmail = z
  .email('must be a valid e-mail address')
  .max(254)
  .transform((value) => value.trim().toLowerCase());
/** A role a member can be given or invited to; ownership moves only by PATCH role `owner`. */
const GrantedRole = z.enum(['editor', 'viewer']).meta({ id: 'MemberRole' });

export const MemberParams = z.object({
  id: z.uuid('must be a UUID'),
  userId: z.uuid('must be a UUID'),
});
export const InvitationParams = z.object({
  id: z.uuid('must be a UUID'),
  invitationId: z.uuid('must be a UUID'),
});
export const InvitationTokenParams = z.object({
  token: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be an invitation token'),
});

export const MemberAddBody = z
  .object({ email: MemberEmail, role: GrantedRole })
  .strict()
  .meta({ id: 'MemberAdd' });
documentBody(MemberAddBody, { examples: [{ email: 'ada@example.org', role: 'editor' }] });
export const MemberUpdateBody = z
  .object({
    role: RoleSchema.describe(
      '`owner` transfers ownership to this member; the previous owner becomes an editor',
    ),
  })
  .strict()
  .meta({ id: 'MemberUpdate' });
documentBody(MemberUpdateBody, { examples: [{ role: 'viewer' }] });
export const InvitationCreateBody = z
  .object({ email: MemberEmail, role: GrantedRole })
  .strict()
  .meta({ id: 'InvitationCreate' });
documentBody(InvitationCreateBody, { examples: [{ email: 'grace@example.org', role: 'viewer' }] });

const MemberSchema = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    email: z
      .string()
      .optional()
      .describe("Their e-mail address: in the owner's replies only (everyone sees names)"),
    role: RoleSchema,
    addedBy: z
      .uuid()
      .nullable()
      .describe(
        'Who added them (null for the owner who created the workspace, or an account since deleted)',
      ),
    addedAt: DateTime,
  })
  .meta({ id: 'Member' });
export const MemberListResponse = z
  .object({ members: z.array(MemberSchema), ...LIST_FIELDS })
  .meta({ id: 'MemberList' });
export const MemberResponse = z.object({ member: MemberSchema }).meta({ id: 'MemberEnvelope' });

const InvitationStatus = z.enum(['pending', 'accepted', 'revoked', 'expired']);
const InvitationSchema = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    email: z.string(),
    role: GrantedRole,
    invitedBy: z.uuid(),
    status: InvitationStatus,
    createdAt: DateTime,
    expiresAt: DateTime,
  })
  .meta({ id: 'Invitation' });
export const InvitationListResponse = z
  .object({ invitations: z.array(InvitationSchema), ...LIST_FIELDS })
  .meta({ id: 'InvitationList' });
export const InvitationResponse = z
  .object({ invitation: InvitationSchema })
  .meta({ id: 'InvitationEnvelope' });
export const InvitationPreviewResponse = z
  .object({ workspaceName: z.string(), inviterName: z.string(), role: GrantedRole })
  .meta({ id: 'InvitationPreview' });
export const InvitationAcceptResponse = z
  .object({ workspaceId: z.uuid(), role: RoleSchema })
  .meta({ id: 'InvitationAccepted' });
