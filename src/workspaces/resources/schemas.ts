/**
 * Request and response schemas of a workspace's resources (the workspace's own, and what every
 * workspace route shares, are in ../schemas.ts). Text is stripped of HTML (input is kept as plain text).
 */
import { z } from 'zod';
import { CitationKeyReply, MovedKeyChange } from '../citation-keys/schemas.js';
import { dialectUnion, documentBody } from '../../platform/openapi.js';
import { KEPT_TEXT_PATTERN, plainText } from '../../platform/sanitize.js';
import { RECORD_TYPES } from '../../records/index.js';
import { AnnotationSchema } from '../annotations/schemas.js';
import { ResourcePdfSchema } from '../pdfs/schemas.js';
import {
  DataInput,
  DateTime,
  HttpUrl,
  LIMITS,
  ListQuery,
  staleReply,
  TagsInput,
  WorkspaceSchema,
} from '../schemas.js';
import {
  CreatorSchema,
  RecordDateSchema,
  RecordFieldsInput,
  RecordFieldsReply,
  RecordTypeInput,
  typedFrom,
} from './record-schemas.js';

export const ResourceParams = z.object({
  id: z.uuid('must be a UUID'),
  resourceId: z.uuid('must be a UUID'),
});

const RESOURCE_SORTS = ['title', 'author', 'year', 'venue', 'added'] as const;
const Year = z.coerce.number().int().min(0).max(9999);
/** A text filter of the query string: trimmed; empty is the same as absent. */
const FilterText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/** The library view: a page of a workspace's resources, filtered and sorted (docs/api.md, Resources of a workspace). */
export const ResourceListQuery = ListQuery.extend({
  sort: z
    .enum(RESOURCE_SORTS)
    .default('added')
    .describe("title, author (first author's family name), year, venue or added (default)"),
  order: z
    .enum(['asc', 'desc'])
    .optional()
    .describe(
      'Default: desc for added and year (newest first), asc for title, author and venue. Resources without the key come last either way',
    ),
  q: FilterText(LIMITS.filterText)
    .optional()
    .describe(
      "Part of the title or of an author's name, in any case, with or without accents (`muller` finds Müller)",
    ),
  tag: FilterText(LIMITS.tag)
    .optional()
    .describe('Only resources with this tag (exactly as saved)'),
  type: FilterText(LIMITS.type)
    .transform((type) => typedFrom(type.toLowerCase()).type ?? type.toLowerCase())
    .optional()
    .describe(
      'Only resources of this type (e.g. article-journal, preprint; article is article-journal)',
    ),
  yearFrom: Year.optional().describe('Only resources published in or after this year'),
  yearTo: Year.optional().describe('Only resources published in or before this year'),
}).refine(
  (query) =>
    query.yearFrom === undefined || query.yearTo === undefined || query.yearFrom <= query.yearTo,
  {
    path: ['yearTo'],
    message: 'must not be before yearFrom',
  },
);

/** The fields a resource is added with; changes take some of them, with the same bounds and cleaning. */
const ResourceFields = z.strictObject({
  resourceId: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(LIMITS.resourceId, `must be at most ${LIMITS.resourceId} characters`)
    .meta({
      pattern: KEPT_TEXT_PATTERN,
      description: 'A search id (arxiv:2101.00001), a DOI, an arXiv id or a PMID',
    })
    .optional(),
  title: plainText(LIMITS.title, { required: true, singleLine: true }).optional(),
  url: HttpUrl.optional(),
  notes: plainText(LIMITS.notes).optional(),
  type: RecordTypeInput.optional(),
  tags: TagsInput.optional(),
  authors: z
    .array(plainText(LIMITS.author, { singleLine: true }))
    .max(LIMITS.authors, `must list at most ${LIMITS.authors} authors`)
    .transform((authors) => authors.filter(Boolean))
    .optional()
    .describe('Plain names ("Grace Hopper", "Hopper, Grace"), read as authors; or send creators'),
  data: DataInput.optional(),
  ...RecordFieldsInput,
});

/** `authors` and `creators` say the same thing two ways: one of them. */
function oneWayToName(body: { authors?: unknown; creators?: unknown }, ctx: z.RefinementCtx) {
  if (body.authors !== undefined && body.creators !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['authors'],
      message: 'names the creators a second way: send authors (plain names) or creators, not both',
    });
}

/**
 * Variant A describes the resource (`title` required, with url, notes, type, tags, authors, data);
 * Variant B names it by `resourceId` (a search id, DOI, arXiv id or PMID) and the service fills in the
 * rest. Fields sent beside a `resourceId` take precedence over the looked-up ones.
 */
export const ResourceCreateBody = ResourceFields.superRefine((body, ctx) => {
  oneWayToName(body, ctx);
  if (body.resourceId === undefined && body.title === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['title'],
      message: 'is required (or send a resourceId)',
    });
  }
}).meta({
  id: 'ResourceCreate',
  description:
    'A resource described by title (Variant A), or named by resourceId (Variant B: the service looks it up, and fields sent beside it take precedence)',
});
documentBody(ResourceCreateBody, {
  shape: z.union([
    ResourceFields.omit({ resourceId: true })
      .required({ title: true })
      .describe('Variant A: described by title'),
    ResourceFields.required({ resourceId: true }).describe(
      'Variant B: named by resourceId (a search id, DOI, arXiv id or PMID)',
    ),
  ]),
  examples: [
    {
      title: 'Attention Is All You Need',
      url: 'https://arxiv.org/abs/1706.03762',
      type: 'paper',
      authors: ['Ashish Vaswani', 'Noam Shazeer'],
      tags: ['transformers'],
      notes: 'Section 3 describes the architecture',
    },
    { title: 'A paper read on paper' },
  ],
});
export type ResourceCreateInput = z.output<typeof ResourceCreateBody>;

/**
 * An extension of the interface, which has no way to change a saved resource: any of its fields, with
 * the create body's bounds and cleaning. A record field sent as null (or empty) is cleared; `creators`
 * replaces them all; `url: null` removes the URL.
 */
export const ResourceUpdateBody = ResourceFields.omit({ resourceId: true, url: true })
  .extend({ url: z.union([HttpUrl, z.null()]).optional() })
  .superRefine((body, ctx) => {
    oneWayToName(body, ctx);
    if (Object.values(body).every((value) => value === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['notes'],
        message: 'is required when nothing else is sent: send the fields to change',
      });
  })
  .meta({ id: 'ResourceUpdate', minProperties: 1 });
documentBody(ResourceUpdateBody, {
  examples: [
    { notes: 'Read section 3 again', tags: ['to-read', 'transformers'] },
    {
      containerTitle: 'PLoS ONE',
      volume: '12',
      issue: '4',
      pages: 'e0175343',
      issued: { year: 2017, month: 4 },
      creators: [
        { role: 'author', family: 'Ma', given: 'Bo-Qiang' },
        { role: 'editor', literal: 'World Health Organization' },
      ],
    },
  ],
});
export type ResourceUpdateInput = z.output<typeof ResourceUpdateBody>;

/** The ids the bulk bodies' examples name (the OpenAPI test puts a resource and a workspace of its own in their place). */
const EXAMPLE_IDS = {
  resource: '0b8e2a4e-3f7c-4a8e-9a51-2f4a6c1d9e10',
  workspace: '6f1c0d7e-52b4-4d2f-8f0e-1c3b5a7d9e21',
} as const;

/** Resources of the workspace in the path, each named once (repeats are dropped). */
const ResourceIds = z
  .array(z.uuid('must be a UUID'))
  .min(1, 'must name at least one resource')
  .max(LIMITS.bulkResources, `must name at most ${LIMITS.bulkResources} resources`)
  .transform((ids) => [...new Set(ids)]);

export const BulkTagBody = z
  .strictObject({
    resourceIds: ResourceIds,
    add: TagsInput.optional().describe(
      'Tags to add to each resource (one already there, in any case, is kept as it is)',
    ),
    remove: TagsInput.optional().describe('Tags to take off each resource (any case)'),
  })
  .refine((body) => (body.add?.length ?? 0) + (body.remove?.length ?? 0) > 0, {
    path: ['add'],
    message: 'is required unless remove is sent: tags to add or to take off',
  })
  .meta({
    id: 'BulkTag',
    description: 'Adds and/or removes tags on several resources at once; all or nothing',
  });
documentBody(BulkTagBody, {
  oneOf: [['add'], ['remove']],
  examples: [{ resourceIds: [EXAMPLE_IDS.resource], add: ['to-read'], remove: ['inbox'] }],
});
export type BulkTagInput = z.output<typeof BulkTagBody>;

export const BulkMoveBody = z
  .strictObject({
    resourceIds: ResourceIds,
    targetWorkspaceId: z
      .uuid('must be a UUID')
      .describe('A workspace you may change, other than this one'),
  })
  .meta({
    id: 'BulkMove',
    description:
      'Moves several resources, with their annotations, to another workspace; one already there is left where it is and reported',
  });
documentBody(BulkMoveBody, {
  examples: [{ resourceIds: [EXAMPLE_IDS.resource], targetWorkspaceId: EXAMPLE_IDS.workspace }],
});

export const BulkRemoveBody = z.strictObject({ resourceIds: ResourceIds }).meta({
  id: 'BulkRemove',
  description: 'Removes several resources (and their annotations) at once; all or nothing',
});
documentBody(BulkRemoveBody, { examples: [{ resourceIds: [EXAMPLE_IDS.resource] }] });

export const ResourceSchema = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    resourceId: z
      .string()
      .nullable()
      .describe('The search id the entry was added by (Variant B); null when described by hand'),
    addedBy: z
      .uuid()
      .nullable()
      .describe(
        'The user who added it (see GET /api/workspaces/{id}/members for names); null once that account is deleted',
      ),
    title: z.string(),
    url: z.string().nullable(),
    type: z
      .enum(RECORD_TYPES)
      .describe('CSL 1.0.2 item type (preprint for its article; docs/api.md, Records)'),
    authors: z
      .array(z.string())
      .describe(
        "Plain names, derived from creators: the authors (else the editors), 'Given Family'",
      ),
    ...RecordFieldsReply,
    citationKey: CitationKeyReply,
    tags: z.array(z.string()),
    notes: z.string(),
    notesUpdatedBy: z
      .uuid()
      .nullable()
      .describe(
        'Who last wrote the notes (see GET /api/workspaces/{id}/members for ' +
          'names; GET /api/workspaces/{id}/activity for every change); null when ' +
          'they were given as the resource was added, or that account is deleted',
      ),
    notesUpdatedAt: z.iso
      .datetime()
      .nullable()
      .describe('When the notes were last written after the resource was added'),
    data: z.record(z.string(), z.unknown()),
    year: z
      .number()
      .int()
      .nullable()
      .describe('The year of issued: what the library view sorts and filters by'),
    venue: z.string().nullable().describe('= containerTitle: what the library view sorts by'),
    version: z
      .number()
      .int()
      .min(1)
      .describe(
        "Starts at 1, one more on every change; the reply's ETag is its version (see If-Match)",
      ),
    createdAt: DateTime,
    addedAt: DateTime.describe('= createdAt (Variant B name)'),
    annotations: z.array(AnnotationSchema),
    pdf: ResourcePdfSchema.nullable().describe(
      'The PDF kept with the resource and its text extraction state; null when it has none',
    ),
  })
  .meta({ id: 'Resource' });

/** The fields "Update from source" may propose, in the order it lists them: the resource's own, then its record's. */
export const REFRESHABLE_FIELDS = [
  'title',
  'url',
  'type',
  // Never the citation key: a key changes only when a person changes it.
  ...(Object.keys(RecordFieldsInput) as Array<keyof typeof RecordFieldsInput>).filter(
    (field): field is Exclude<keyof typeof RecordFieldsInput, 'citationKey'> =>
      field !== 'citationKey',
  ),
] as const;
export type RefreshableField = (typeof REFRESHABLE_FIELDS)[number];

/** A field's value in a proposal: text, names or a date, as the resource reply gives them. */
const FieldValue = z.union([z.string(), z.array(CreatorSchema), RecordDateSchema]);

export const ResourceRefreshResponse = z
  .object({
    resourceId: z.uuid().describe('The resource (its id in the workspace)'),
    version: z
      .number()
      .int()
      .min(1)
      .describe(
        'The version the proposal was made from: apply the changes with a PATCH carrying `If-Match: "r<version>"` (the ETag of this reply)',
      ),
    source: z
      .object({
        provider: z.string().describe('The search provider that answered (crossref, arxiv…)'),
        id: z.string().describe("The work's id at that provider (a search result id)"),
      })
      .describe('Where the proposed values come from'),
    changes: z
      .array(
        z.object({
          field: z.enum(REFRESHABLE_FIELDS).describe('The field as a PATCH names it'),
          current: FieldValue.nullable().describe('What the resource holds now; null: nothing'),
          proposed: FieldValue.describe('What the source says, as a PATCH of the field saves it'),
        }),
      )
      .describe(
        'Every field whose looked-up value differs and is not empty (a refresh never ' +
          'proposes clearing one); empty when the resource already says what the source says',
      ),
  })
  .meta({ id: 'ResourceRefresh' });
export type RefreshProposal = z.output<typeof ResourceRefreshResponse>;
type ProposedChange = RefreshProposal['changes'][number];
export type ProposedValue = ProposedChange['proposed'];

export const WorkspaceDetailResponse = dialectUnion(
  'WorkspaceDetailReply',
  'Cookie session: the workspace with its resources (Variant A). Bearer token: { workspace, resources } (Variant B)',
  {
    bearer: z
      .object({ workspace: WorkspaceSchema, resources: z.array(ResourceSchema) })
      .meta({ id: 'WorkspaceDetailEnvelope' }),
    cookie: WorkspaceSchema.extend({ resources: z.array(ResourceSchema) }).meta({
      id: 'WorkspaceWithResources',
    }),
  },
);

export const ResourceResponse = dialectUnion(
  'ResourceReply',
  'Cookie session: the resource (Variant A). Bearer token: { resource } (Variant B)',
  {
    bearer: z.object({ resource: ResourceSchema }).meta({ id: 'ResourceEnvelope' }),
    cookie: ResourceSchema,
  },
);

export const BulkTagResponse = z
  .object({
    updated: z
      .array(z.object({ id: z.uuid(), tags: z.array(z.string()) }))
      .describe('Each resource named, with its tags now'),
  })
  .meta({ id: 'BulkTagResult' });

export const BulkMoveResponse = z
  .object({
    targetWorkspaceId: z.uuid(),
    moved: z.array(z.uuid()).describe('Resources now in the target workspace'),
    duplicates: z
      .array(z.uuid())
      .describe('Resources left where they were: the same work is already in the target workspace'),
    keysChanged: z
      .array(MovedKeyChange)
      .describe(
        'Moved resources whose citation key another resource of the target held (in any case): ' +
          'each got a, b… added; every other moved resource keeps its key',
      ),
  })
  .meta({ id: 'BulkMoveResult' });

export const BulkRemoveResponse = z
  .object({ removed: z.array(z.uuid()) })
  .meta({ id: 'BulkRemoveResult' });

export const ResourceStaleResponse = staleReply('ResourceStale', ResourceSchema);
