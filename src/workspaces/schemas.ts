/**
 * Request and response schemas of the workspace routes: they validate, type the handlers and feed
 * OpenAPI. Text is stripped of HTML here (input is kept as plain text), so handlers only ever see plain
 * text, and limits apply to what is kept.
 */
import { z } from 'zod';
import { dialectUnion, ErrorResponse, documentBody } from '../platform/openapi.js';
import { plainText } from '../platform/sanitize.js';
import { IfMatchHeader } from '../platform/versions.js';
import { TITLE_MAX } from '../records/index.js';

export const LIMITS = {
  workspaceName: 200,
  description: 2_000,
  title: TITLE_MAX,
  notes: 10_000,
  tags: 20,
  tag: 50,
  type: 50,
  authors: 100,
  author: 200,
  url: 2_048,
  dataBytes: 64 * 1024,
  annotationBody: 10_000,
  highlightsBytes: 16 * 1024,
  highlightRanges: 200,
  highlightText: 2_000,
  /** A PDF annotation's page number and its marked boxes (a selection over many lines has one a line). */
  pdfPage: 100_000,
  pdfRects: 200,
  resourceId: 300,
  listDefault: 20,
  listMax: 100,
  /** Resources one bulk request may name (the web app sends at most a page: 100). */
  bulkResources: 500,
  /** The library view's text filter. */
  filterText: 200,
  resourcesPerWorkspace: 10_000,
  annotationsPerResource: 100,
  shareDaysDefault: 30,
  shareDaysMax: 365,
} as const;

const count = (n: number) => n.toLocaleString('en-US');

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Tags: trimmed, HTML-free, empty ones dropped, duplicates (ignoring case) removed. */
export const TagsInput = z
  .array(plainText(LIMITS.tag, { singleLine: true }))
  .max(LIMITS.tags, `must hold at most ${LIMITS.tags} tags`)
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((tag) => {
      const key = tag.toLowerCase();
      if (!tag || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });

export const HttpUrl = z
  .string()
  .trim()
  .max(LIMITS.url, `must be at most ${count(LIMITS.url)} characters`)
  .pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }))
  .meta({ format: 'uri', description: 'An http(s) URL' });

/** The value when it is an http(s) URL a resource may hold (what a request's `url` must be), else undefined. */
export function httpUrlOf(value: unknown): string | undefined {
  const parsed = HttpUrl.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export const DataInput = z
  .record(z.string(), z.unknown())
  .refine(
    (data) => jsonBytes(data) <= LIMITS.dataBytes,
    `must be at most ${LIMITS.dataBytes / 1024} KB of JSON`,
  )
  .describe(`Any JSON object of at most ${LIMITS.dataBytes / 1024} KB`);

const WorkspaceName = plainText(LIMITS.workspaceName, { required: true, singleLine: true });

export const RoleSchema = z.enum(['owner', 'editor', 'viewer']).meta({ id: 'Role' });

export const IdParams = z.object({ id: z.uuid('must be a UUID') });
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.listMax).default(LIMITS.listDefault),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const WorkspaceDetailQuery = z.object({
  resourceLimit: z.coerce
    .number()
    .int()
    .min(0)
    .max(LIMITS.resourcesPerWorkspace)
    .optional()
    .describe(
      'At most this many resources, newest first (0: the workspace alone, as ' +
        'the library view asks, which pages through GET …/resources); all of ' +
        'them when absent. resourceCount counts them all',
    ),
});

/**
 * The fields a workspace is created or changed with; `name` (Variant B) and `title` (Variant A) are the
 * same. Bodies are closed: an unknown field (a misspelt `nmae`) is refused with its name, not ignored.
 */
const WorkspaceFields = z.strictObject({
  name: WorkspaceName.optional(),
  title: WorkspaceName.optional(),
  description: plainText(LIMITS.description).optional(),
  isPublic: z.boolean().optional(),
});
const NAME_AND_TITLE =
  'name and title are the same field of the two variants: send one (both are accepted only when equal)';

/** What a client sees of the create body: Variant B named by `name`, or Variant A by `title`, each a closed object. */
const WorkspaceCreatePublished = z.union([
  WorkspaceFields.omit({ title: true })
    .required({ name: true })
    .describe('Variant B: named by name'),
  WorkspaceFields.omit({ name: true })
    .required({ title: true })
    .describe('Variant A: named by title'),
]);

/** Variant B sends `name`, Variant A `title`; either names the workspace (docs/design.md, Dialects). */
export const WorkspaceCreateBody = WorkspaceFields.superRefine((body, ctx) => {
  if (body.name === undefined && body.title === undefined) {
    ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required (send name or title)' });
  } else if (body.name !== undefined && body.title !== undefined && body.name !== body.title) {
    ctx.addIssue({
      code: 'custom',
      path: ['title'],
      message: 'differs from name; send one of them',
    });
  }
})
  .transform(({ name, title, description, isPublic }) => ({
    name: (name ?? title) as string,
    description: description ?? '',
    isPublic: isPublic ?? false,
  }))
  .meta({
    id: 'WorkspaceCreate',
    description: `A workspace named by name (Variant B) or title (Variant A); ${NAME_AND_TITLE}`,
  });
documentBody(WorkspaceCreateBody, {
  examples: [
    { name: 'Protein folding', description: 'Structure prediction papers', isPublic: false },
    { title: 'Reading list' },
  ],
  shape: WorkspaceCreatePublished,
});

export const WorkspaceUpdateBody = WorkspaceFields.superRefine((body, ctx) => {
  if (Object.values(body).every((value) => value === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['name'],
      message:
        'is required when nothing else is sent: send name (or title), description or isPublic',
    });
  } else if (body.name !== undefined && body.title !== undefined && body.name !== body.title) {
    ctx.addIssue({
      code: 'custom',
      path: ['title'],
      message: 'differs from name; send one of them',
    });
  }
})
  .transform(({ name, title, description, isPublic }) => ({
    name: name ?? title,
    description,
    isPublic,
  }))
  .meta({
    id: 'WorkspaceUpdate',
    minProperties: 1,
    not: { required: ['name', 'title'] },
    description: `The fields to change (at least one); ${NAME_AND_TITLE}`,
  });
documentBody(WorkspaceUpdateBody, {
  examples: [
    { name: 'Protein folding (2026)' },
    { description: 'Shared with the lab', isPublic: true },
  ],
});

export const ExportQuery = z.object({
  format: z
    .enum(['bibtex', 'biblatex', 'ris', 'csljson'])
    .default('bibtex')
    .describe(
      'bibtex: classic BibTeX (ASCII, accents as LaTeX); biblatex: BibLaTeX for biber (UTF-8, ' +
        '`date`, `journaltitle`, `eprinttype`); ris; csljson',
    ),
});

/** A citation file as text (BibTeX, RIS); the route writes it as it is. */
export const CitationText = z.string();

/** CSL-JSON: an array of CSL items (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html). */
export const CslJsonExport = z
  .array(
    z
      .object({
        id: z.string(),
        type: z.string(),
        title: z.string().optional(),
        author: z
          .array(
            z
              .object({
                family: z.string().optional(),
                given: z.string().optional(),
                literal: z.string().optional(),
              })
              .catchall(z.unknown()),
          )
          .optional(),
        URL: z.string().optional(),
        DOI: z.string().optional(),
      })
      .catchall(z.unknown())
      .meta({ id: 'CslItem' }),
  )
  .meta({ id: 'CslJson' });

// ---- responses ----

/** The error answers every workspace route may give (docs/design.md, Errors). */
export const workspaceErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
};

export const DateTime = z.iso.datetime();

export const WorkspaceSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    title: z.string().describe('= name (Variant A name)'),
    description: z.string(),
    ownerId: z.uuid(),
    isPublic: z.boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
    resourceCount: z.number().int(),
    _count: z.object({
      resources: z.number().int(),
      shares: z.number().int().describe('live (unrevoked, unexpired) share links'),
    }),
    role: RoleSchema.describe(
      "The asker's role in this workspace: owner, editor or viewer (see docs/api.md, Roles)",
    ),
    version: z
      .number()
      .int()
      .min(1)
      .describe(
        "Starts at 1, one more on every change of its settings or owner (not when resources come and go); the reply's ETag is its version (see If-Match)",
      ),
  })
  .meta({ id: 'Workspace' });

export const WorkspaceListResponse = dialectUnion(
  'WorkspaceListReply',
  'Cookie session: an array (Variant A). Bearer token: { workspaces, total } (Variant B)',
  {
    bearer: z
      .object({ workspaces: z.array(WorkspaceSchema), total: z.number().int() })
      .meta({ id: 'WorkspaceListEnvelope' }),
    cookie: z.array(WorkspaceSchema).meta({ id: 'WorkspaceList' }),
  },
);

export const WorkspaceResponse = dialectUnion(
  'WorkspaceReply',
  'Cookie session: the workspace (Variant A). Bearer token: { workspace } (Variant B)',
  {
    bearer: z.object({ workspace: WorkspaceSchema }).meta({ id: 'WorkspaceEnvelope' }),
    cookie: WorkspaceSchema,
  },
);

/** The one delete answer, shared with every capability (platform/reply-shapes.ts). */
export { DeletedResponse } from '../platform/reply-shapes.js';

// ---- optimistic concurrency (ETag / If-Match) ----

/** The request header of every update and delete of a workspace, resource (notes too) and annotation. */
export const IfMatchHeaders = z.object({ 'if-match': IfMatchHeader });

export function staleReply<T extends z.ZodType>(id: string, object: T) {
  return ErrorResponse.extend({
    current: object.describe(
      'The object as it is now (its ETag in the header): show it, or send the change again with its ETag as If-Match',
    ),
  }).meta({
    id,
    description:
      'If-Match named a version the object no longer has: nothing was written. code PRECONDITION_FAILED, details.reason `stale`',
  });
}
export const WorkspaceStaleResponse = staleReply('WorkspaceStale', WorkspaceSchema);
