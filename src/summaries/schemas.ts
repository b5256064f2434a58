/** Request and response schemas of the summarize routes (both variants' bodies; docs/design.md, Dialects). */
import { z } from 'zod';
import { documentBody } from '../platform/openapi.js';

const Mode = z.enum(['quick', 'deep', 'auto']);

/** Variant A fields (body of POST, query of GET). */
const VariantAFields = {
  id: z
    .string()
    .trim()
    .max(300)
    .refine((id) => !/^sha256:/i.test(id), {
      message:
        'must not start with sha256: (a stored PDF is summarised by workspaceId and resourceId)',
    })
    .optional()
    .describe(
      "The record's id (a search result's); `sha256:` ids are refused (400): a stored PDF is named by workspaceId and resourceId",
    ),
  source: z.string().trim().max(50).optional(),
  title: z.string().trim().max(1000).optional(),
  abstract: z.string().max(20_000).optional(),
  url: z.string().trim().max(2000).optional(),
  pdfUrl: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .describe(
      "Deep: a PDF address the record names (a search result's pdfUrl); tried after an arXiv id, before the record's own page",
    ),
  arxivId: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe(
      "Deep: the record's arXiv id (2101.00001v2, cond-mat/0603029): its PDF is fetched from arXiv",
    ),
  doi: z
    .string()
    .trim()
    .max(300)
    .optional()
    .describe("Deep: the record's DOI: its open-access locations are looked up in OpenAlex"),
  mode: Mode.default('quick'),
  workspaceId: z
    .uuid('must be a UUID')
    .optional()
    .describe(
      'With resourceId: summarise a resource you keep (its stored PDF text for deep; no outbound fetch)',
    ),
  resourceId: z
    .uuid('must be a UUID')
    .optional()
    .describe('A resource of workspaceId (the id in the workspace, not a search id)'),
};

/** A stored resource is named by both ids or by neither. */
const bothOrNeither = (value: { workspaceId?: string; resourceId?: string }) =>
  (value.workspaceId === undefined) === (value.resourceId === undefined);
const BOTH_OR_NEITHER = {
  message: 'send workspaceId and resourceId together',
  path: ['resourceId'],
};

export const SummarizeBody = z
  .object({
    ...VariantAFields,
    content: z.string().max(400_000).optional().describe('Variant B: the text to summarise'),
    type: z.enum(['research_paper', 'article', 'book', 'video_transcript']).optional(),
  })
  .refine(
    (body) =>
      Boolean(
        body.content || body.id || body.title || body.abstract || body.url || body.resourceId,
      ),
    {
      message:
        'is required unless the paper is named (Variant A: an id, title, abstract, url, or workspaceId and resourceId)',
      path: ['content'],
    },
  )
  .refine(bothOrNeither, BOTH_OR_NEITHER);
documentBody(SummarizeBody, {
  // What the refinement above asks for, as the document can say it: one of these.
  oneOf: [['content'], ['id'], ['title'], ['abstract'], ['url'], ['workspaceId', 'resourceId']],
  examples: [
    {
      content:
        'Transformers replace recurrence with attention. The model relates ' +
        'every position of a sequence to every other in one step. Training is ' +
        'faster because the computation runs in parallel. On translation ' +
        'benchmarks the model reaches a new state of the art at a fraction of ' +
        'the training cost.',
      type: 'research_paper',
    },
  ],
});

export const SummarizeQuery = z.object(VariantAFields).refine(bothOrNeither, BOTH_OR_NEITHER);

/** An EventSource's reconnect names the last event it saw. */
export const StreamHeaders = z.object({
  'last-event-id': z
    .string()
    .max(100)
    .optional()
    .describe(
      'Sent by an EventSource when it reconnects; `end` (a finished stream) is answered 204',
    ),
});

export const VariantAResponse = z
  .object({
    tldr: z.string(),
    bullets: z.array(z.string()),
    tags: z.array(z.string()),
    readingTimeMinutes: z.number(),
    confidence: z.literal('medium'),
    modeRequested: Mode,
    modeUsed: z.enum(['quick', 'deep']),
    fromCache: z.union([z.literal(false), z.enum(['kv', 'memory'])]),
    cache: z.string(),
  })
  .meta({ id: 'SummaryVariantA', description: 'The reply to a Variant A body' });

export const VariantBResponse = z
  .object({
    summary: z.object({
      abstract: z.string(),
      keyPoints: z.array(z.string()),
      conclusion: z.string(),
      keywords: z.array(z.string()),
    }),
    metadata: z.object({
      wordCount: z.number(),
      readingTime: z.number(),
      confidence: z.number().min(0).max(1),
    }),
    modeUsed: z.enum(['quick', 'deep']),
    fromCache: z.union([z.literal(false), z.enum(['kv', 'memory'])]),
  })
  .meta({ id: 'SummaryVariantB', description: 'The reply to a Variant B body (content)' });

/**
 * GET /api/summarize's stream as the document shows it: text of `event: <name>` and `data: <JSON>`
 * lines; what each event's data holds is in the description (OpenAPI 3.1 has no schema per event).
 */
// Typed unknown so the route can hand Fastify a stream; the document still says it is text.
export const SummaryEventStream = z.unknown().meta({
  id: 'SummaryEventStream',
  type: 'string',
  description:
    'Server-sent events, in this order: `meta` {fromCache: ' +
    'false|"kv"|"memory", cache, modeRequested, modeUsed}; `progress` ' +
    '{stage: "fetching"|"extracting"|"summarizing"} during deep work; `tldr` ' +
    'a string; `bullets` string[]; `tags` string[]; `done` {ok: true}. On ' +
    'failure, one `error` event {message, code, retryAfter?} ends the stream ' +
    '(`retryAfter`: seconds to wait, when the rate limit refused the stream, ' +
    'code `RATE_LIMITED`). Every event has an id; the last one (`done` or ' +
    '`error`) has the id `end`, and the stream opens with `retry: 3600000`. ' +
    'Lines starting with `:` are keep-alive comments.',
});

export const PlainError = z.object({ error: z.string() }).meta({
  id: 'PlainError',
  description:
    "POST /api/summarize errors: a plain message, unlike the other routes' error envelope",
});
