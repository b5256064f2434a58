/** Request and response schemas of the account routes: they validate, type the handlers and feed OpenAPI. */
import { z } from 'zod';
import { documentBody } from '../platform/openapi.js';

const Timestamp = z.iso.datetime();

export const AccountSummaryResponse = z
  .object({
    email: z.string(),
    hasPassword: z
      .boolean()
      .describe('False for an account made through Google or GitHub that never set a password'),
    signInMethods: z.array(z.enum(['password', 'google', 'github'])),
    holdings: z
      .object({
        workspaces: z.number().int(),
        resources: z.number().int(),
        pdfs: z.number().int(),
        annotations: z.number().int(),
        activeShareLinks: z.number().int(),
        sharedWorkspaces: z
          .number()
          .int()
          .describe(
            'Owned workspaces with other members, who lose them (transfer ownership first to keep them)',
          ),
        memberships: z
          .number()
          .int()
          .describe('Other people’s workspaces the user is a member of: left, not deleted'),
      })
      .describe(
        'What deleting the account deletes: the workspaces the user owns and what is in them',
      ),
  })
  .meta({ id: 'AccountSummary' });

export const DeleteAccountBody = z
  .object({
    password: z
      .string()
      .max(1000)
      .optional()
      .describe('The current password (an account with a password)'),
    email: z
      .string()
      .max(254)
      .optional()
      .describe('The account’s e-mail address, typed out (an account without a password)'),
  })
  .meta({ id: 'DeleteAccount' });
documentBody(DeleteAccountBody, { examples: [{ password: 'tidal-quasar-42' }] });

/** The one delete answer (platform/reply-shapes.ts), with a sentence to show. */
export const DeleteAccountResponse = z
  .object({ success: z.literal(true), id: z.uuid(), message: z.string() })
  .meta({ id: 'AccountDeleted' });

export const ExportQuery = z.object({
  format: z
    .enum(['json', 'bibtex', 'zip'])
    .default('json')
    .describe(
      'json: everything; bibtex: every resource of every workspace as citations; zip: both, and every stored PDF',
    ),
});

const ExportAnnotation = z.object({
  id: z.uuid(),
  body: z.string(),
  color: z.string().describe("The highlight's colour (src/workspaces/annotations/colors.ts)"),
  highlights: z.record(z.string(), z.unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const ExportResource = z.object({
  id: z.uuid(),
  resourceId: z.string().nullable(),
  title: z.string(),
  url: z.string().nullable(),
  type: z.string().nullable(),
  authors: z.array(z.string()),
  tags: z.array(z.string()),
  notes: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: Timestamp,
  pdf: z
    .object({
      filename: z.string(),
      byteSize: z.number().int(),
      sha256: z.string(),
      uploadedAt: Timestamp,
    })
    .nullable(),
  annotations: z.array(ExportAnnotation),
});

const ExportShareLink = z
  .object({
    id: z.uuid(),
    readOnly: z.boolean(),
    expiresAt: Timestamp,
    revokedAt: Timestamp.nullable(),
    pausedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .describe(
    'A share link without its token (the token opens the workspace; an export file is not where it belongs)',
  );

export const AccountExport = z
  .object({
    exportedAt: Timestamp,
    user: z.object({
      id: z.uuid(),
      email: z.string(),
      name: z.string(),
      emailConfirmed: z.boolean(),
      signInMethods: z.array(z.string()),
      createdAt: Timestamp,
    }),
    profile: z
      .object({
        displayName: z.string().nullable(),
        bio: z.string().nullable(),
        avatarUrl: z.string().nullable(),
        preferences: z.record(z.string(), z.unknown()),
        createdAt: Timestamp,
        updatedAt: Timestamp,
      })
      .nullable(),
    workspaces: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        description: z.string(),
        isPublic: z.boolean(),
        createdAt: Timestamp,
        updatedAt: Timestamp,
        resources: z.array(ExportResource),
        shareLinks: z.array(ExportShareLink),
      }),
    ),
    searchHistory: z.array(
      z.object({
        query: z.string(),
        providers: z.array(z.string()),
        resultCount: z.number().int(),
        searchedAt: Timestamp,
      }),
    ),
    searchHistoryTruncated: z
      .boolean()
      .describe('True when there were more searches than the newest 10,000 the export holds'),
  })
  .meta({ id: 'AccountExport' });
export type AccountExport = z.infer<typeof AccountExport>;
