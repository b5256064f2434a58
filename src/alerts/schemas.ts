/** Alerts: request and reply shapes (they make the OpenAPI document; alerts-web builds against them). */
import { CURSOR_FIELD, LIST_FIELDS } from '../platform/reply-shapes.js';
import { z } from 'zod';
import { documentBody } from '../platform/openapi.js';
import { PROVIDER_IDS, RESULT_TYPES } from '../search/index.js';

/** How many runs one page of GET /api/alerts/{id}/runs holds. */
export const RUNS_PAGE_SIZE = 20;

const DateTime = z.iso.datetime();
const Year = z
  .number()
  .int('must be a whole year')
  .min(1000, 'must be a year from 1000 to 9999')
  .max(9999, 'must be a year from 1000 to 9999');

const AlertQuery = z
  .string()
  .trim()
  .min(1, 'must be 1-500 characters')
  .max(500, 'must be 1-500 characters');
const AlertProviders = z
  .array(z.enum(PROVIDER_IDS))
  .min(1, 'must name at least one provider')
  .max(PROVIDER_IDS.length)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a provider')
  .describe('Provider ids to search; absent or null: every enabled one');
const FrequencySchema = z.enum(['daily', 'weekly']).meta({ id: 'AlertFrequency' });

/** The filters `GET /api/search` takes (search/filters.ts), as JSON. */
const AlertFiltersSchema = z
  .object({
    yearFrom: Year.optional(),
    yearTo: Year.optional(),
    hasPdf: z.boolean().optional().describe('true: only works with a freely readable PDF'),
    type: z.enum(RESULT_TYPES).optional(),
    venue: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .optional(),
  })
  .strict()
  .refine(
    (filters) =>
      filters.yearFrom === undefined ||
      filters.yearTo === undefined ||
      filters.yearFrom <= filters.yearTo,
    {
      path: ['yearTo'],
      message: 'must not be before yearFrom',
    },
  )
  .meta({ id: 'AlertFilters' });

export const AlertCreateBody = z
  .object({
    query: AlertQuery,
    providers: AlertProviders.nullish(),
    filters: AlertFiltersSchema.nullish(),
    frequency: FrequencySchema,
  })
  .strict()
  .meta({ id: 'AlertCreate' });
documentBody(AlertCreateBody, {
  examples: [
    {
      query: 'retrieval augmented generation',
      providers: ['arxiv', 'openalex'],
      filters: { yearFrom: 2024 },
      frequency: 'weekly',
    },
  ],
});

export const AlertUpdateBody = z
  .object({
    query: AlertQuery.optional(),
    providers: AlertProviders.nullish(),
    filters: AlertFiltersSchema.nullish(),
    frequency: FrequencySchema.optional(),
    paused: z
      .boolean()
      .optional()
      .describe('A paused alert does not run on its schedule (it can still be run by hand)'),
  })
  .strict()
  .meta({ id: 'AlertUpdate' });
documentBody(AlertUpdateBody, {
  examples: [{ paused: true }, { frequency: 'daily', providers: null }],
});

export const AlertParams = z.object({ id: z.uuid('must be a UUID') });
export const RunsQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor from a previous page')
    .optional()
    .describe('`nextCursor` of the previous page'),
});
export const UnsubscribeParams = z.object({
  token: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be an unsubscribe token'),
});
/** A mail client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, form-encoded), or the app's empty or JSON POST. */
export const UnsubscribeBody = z
  .object({ 'List-Unsubscribe': z.literal('One-Click').optional() })
  .meta({ id: 'AlertUnsubscribe' });

export const RunSchema = z
  .object({
    id: z.uuid(),
    alertId: z.uuid(),
    status: z
      .enum(['queued', 'running', 'done', 'partial', 'failed'])
      .describe(
        '`partial`: some provider failed; what it would have found is caught up by the next run',
      ),
    reason: z.enum(['schedule', 'manual']),
    createdAt: DateTime,
    startedAt: DateTime.nullable(),
    finishedAt: DateTime.nullable(),
    found: z.number().int().describe('Works the search found'),
    newCount: z.number().int().describe('Of those, works this alert had not reported before'),
    providers: z.array(
      z.object({
        id: z.string(),
        status: z.enum(['ok', 'timeout', 'error', 'rate_limited', 'disabled']),
        count: z.number().int(),
      }),
    ),
    mail: z
      .enum(['none', 'pending', 'sent', 'failed'])
      .describe(
        '`none`: nothing new, so no digest; `pending`: being sent or retried; ' +
          '`sent`; `failed`: given up (or interrupted mid-send and, to never send ' +
          'twice, not sent again)',
      ),
  })
  .meta({ id: 'AlertRun' });

export const AlertSchema = z
  .object({
    id: z.uuid(),
    query: z.string(),
    providers: z.array(z.string()).nullable(),
    filters: AlertFiltersSchema.nullable(),
    frequency: FrequencySchema,
    paused: z.boolean(),
    createdAt: DateTime,
    nextRunAt: DateTime.nullable().describe('When the schedule runs it next; null while paused'),
    lastRun: RunSchema.nullable(),
  })
  .meta({ id: 'Alert' });

export const AlertListResponse = z
  .object({ alerts: z.array(AlertSchema), ...LIST_FIELDS })
  .meta({ id: 'AlertList' });
export const RunEnvelope = z.object({ run: RunSchema }).meta({ id: 'AlertRunEnvelope' });
export const RunListResponse = z
  .object({
    runs: z.array(RunSchema),
    ...LIST_FIELDS,
    ...CURSOR_FIELD,
  })
  .meta({ id: 'AlertRunList' });
export const UnsubscribePreviewResponse = z
  .object({ query: z.string(), frequency: FrequencySchema, unsubscribed: z.boolean() })
  .meta({ id: 'AlertUnsubscribePreview' });
export const UnsubscribeResponse = z
  .object({ query: z.string(), unsubscribed: z.literal(true) })
  .meta({ id: 'AlertUnsubscribed' });
