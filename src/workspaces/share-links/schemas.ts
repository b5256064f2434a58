/** Schemas of share links: their requests, the public page's and their replies. */
import { z } from 'zod';
import { documentBody } from '../../platform/openapi.js';
import { LIMITS } from '../schemas.js';

const DateTime = z.iso.datetime();

export const ShareParams = z.object({
  id: z.uuid('must be a UUID'),
  shareId: z.uuid('must be a UUID'),
});

/**
 * A share link: read-only (the default) or, with `readOnly: false`, one through which a signed-in
 * visitor joins as editor (the owner alone makes those: POLICY workspace.shareEditable). A read-only
 * link lets nobody join unless `allowJoin: true` (the owner alone: POLICY workspace.shareJoinable); an
 * editable one always does. Expiry in days from now (default 30) or as a date within a year.
 */
export const ShareCreateBody = z
  .strictObject({
    readOnly: z
      .boolean('must be true or false')
      .describe(
        'true (the default): a read-only page; false: also a signed-in visitor may join as editor (owner only)',
      )
      .optional(),
    allowJoin: z
      .boolean('must be true or false')
      .describe(
        'A read-only link: whether a signed-in visitor may join through it as ' +
          "viewer (false by default; true is the owner's alone, else 403). An " +
          'editable link always allows joining (false is a 400)',
      )
      .optional(),
    expiresInDays: z.number().int().min(1).max(LIMITS.shareDaysMax).optional(),
    expiresAt: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
      .describe(
        `A time in the future, within ${LIMITS.shareDaysMax} days of now (an earlier or later one is refused)`,
      )
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.expiresInDays !== undefined && body.expiresAt !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['expiresAt'],
        message: 'send expiresInDays or expiresAt, not both',
      });
      return;
    }
    if (body.readOnly === false && body.allowJoin === false)
      ctx.addIssue({
        code: 'custom',
        path: ['allowJoin'],
        message: 'an editable link is for joining: it always allows it',
      });
    if (body.expiresAt === undefined) return;
    const at = new Date(body.expiresAt).getTime();
    if (at <= Date.now())
      ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'must be in the future' });
    if (at > Date.now() + (LIMITS.shareDaysMax + 1) * 86_400_000) {
      ctx.addIssue({
        code: 'custom',
        path: ['expiresAt'],
        message: `must be within ${LIMITS.shareDaysMax} days`,
      });
    }
  })
  .transform((body) => ({
    readOnly: body.readOnly ?? true,
    allowJoin: body.readOnly === false || body.allowJoin === true,
    expiresAt: body.expiresAt
      ? new Date(body.expiresAt)
      : new Date(Date.now() + (body.expiresInDays ?? LIMITS.shareDaysDefault) * 86_400_000),
  }))
  .meta({
    id: 'ShareLinkCreate',
    not: { required: ['expiresInDays', 'expiresAt'] },
    description:
      `Read-only (default; nobody joins through it unless allowJoin) or ` +
      `editable; expiry in days from now (default ${LIMITS.shareDaysDefault}) ` +
      `or as a future time within ${LIMITS.shareDaysMax} days; not both`,
  });
documentBody(ShareCreateBody, {
  examples: [
    { expiresInDays: 7 },
    { readOnly: true, expiresInDays: 30 },
    { readOnly: true, allowJoin: true, expiresInDays: 7 },
    { readOnly: false, expiresInDays: 7 },
  ],
});

export const ShareTokenParams = z.object({ token: z.string() });
/** A token longer than any this service makes is refused before it is looked up. */
export const ShareJoinParams = z.object({ token: z.string().min(1).max(200) });
export const SharePageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(1)
    .describe('1-based page of resources (25 a page)'),
});

/** What the owner may change of a link: whether a signed-in visitor may join through it (a read-only one). */
export const ShareUpdateBody = z
  .strictObject({
    allowJoin: z
      .boolean('must be true or false')
      .describe(
        'Whether a signed-in visitor may join through this read-only link as viewer; an editable link always allows it (false is a 409)',
      ),
  })
  .meta({ id: 'ShareLinkUpdate' });
documentBody(ShareUpdateBody, { examples: [{ allowJoin: true }, { allowJoin: false }] });

export const ShareLinkSchema = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    token: z
      .string()
      .nullable()
      .describe('null only if the service secret changed since the link was made'),
    url: z.string().nullable().describe('the public page, <PUBLIC_URL>/share/<token>'),
    readOnly: z
      .boolean()
      .describe(
        'true: a read-only page (joined as viewer when allowJoin); false: a signed-in visitor joins as editor (POST /api/share/{token}/join)',
      ),
    allowJoin: z
      .boolean()
      .describe(
        'Whether a signed-in visitor may join through it: always for an editable link; for a read-only one when the owner turned it on (off by default)',
      ),
    active: z.boolean().describe('false once expired, and while paused'),
    pausedAt: DateTime.nullable().describe(
      'When the link was paused: the account was claimed by the owner of its ' +
        'e-mail address (a password reset or a verified Google/GitHub sign-in on ' +
        'an account whose address was never confirmed), and the link, made ' +
        'before, may have been made by someone else. It opens nothing until the ' +
        'owner resumes it (POST …/share/{shareId}/resume)',
    ),
    expiresAt: DateTime,
    createdAt: DateTime,
  })
  .meta({ id: 'ShareLink' });
