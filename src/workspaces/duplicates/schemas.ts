/** Request and reply schemas of the duplicates finder and of a merge. */
import { z } from 'zod';
import { documentBody } from '../../platform/openapi.js';
import { ResourceSchema } from '../resources/schemas.js';
import { DUPLICATE_REASONS } from './groups.js';
import { LIST_FIELDS } from '../../platform/reply-shapes.js';

/** The most resources one merge names besides the kept one. */
export const MERGE_MAX = 100;

export const DuplicatesResponse = z
  .object({
    groups: z.array(
      z
        .object({
          reason: z
            .enum(DUPLICATE_REASONS)
            .describe(
              'The strongest reason that links two of them: the same `doi` (any case), ' +
                '`arxiv` id, `pmid`, or the same `title` (accents, case and punctuation ' +
                'folded) with the same year and first author family name (or none on either)',
            ),
          resources: z.array(ResourceSchema).describe('Oldest first'),
        })
        .meta({ id: 'DuplicateGroup' }),
    ),
    ...LIST_FIELDS,
  })
  .meta({ id: 'DuplicateGroups' });

const EXAMPLE = {
  keep: '0b8e2a4e-3f7c-4a8e-9a51-2f4a6c1d9e10',
  merge: '3d5c7e91-8a2b-4c6d-9e0f-1a2b3c4d5e6f',
} as const;

export const MergeBody = z
  .strictObject({
    keep: z.uuid('must be a UUID').describe('The resource that stays, with its id'),
    merge: z
      .array(z.uuid('must be a UUID'))
      .min(1, 'must name at least one resource')
      .max(MERGE_MAX, `must name at most ${MERGE_MAX} resources`)
      .describe(
        'The resources merged into it and removed; the fields `keep` lacks are taken from them in this order',
      ),
    expectedVersions: z
      .record(z.uuid('must be a UUID'), z.number().int().min(1))
      .optional()
      .describe(
        'Optimistic concurrency: the `version` of each resource as you saw it, by id (of ' +
          '`keep` and `merge` only). When one has changed since, nothing is merged and the ' +
          'answer is 409 (`reason: changed`). Without it, the merge takes the resources as they are.',
      ),
  })
  .superRefine((body, ctx) => {
    body.merge.forEach((id, index) => {
      if (id === body.keep)
        ctx.addIssue({ code: 'custom', path: ['merge', index], message: 'must not be keep' });
      else if (body.merge.indexOf(id) !== index)
        ctx.addIssue({ code: 'custom', path: ['merge', index], message: 'is named twice' });
    });
    for (const id of Object.keys(body.expectedVersions ?? {}))
      if (id !== body.keep && !body.merge.includes(id))
        ctx.addIssue({
          code: 'custom',
          path: ['expectedVersions', id],
          message: 'names a resource that is neither keep nor in merge',
        });
  })
  .meta({
    id: 'DuplicatesMerge',
    description:
      'Merges resources into one (`keep`): its record with every field it lacks taken from ' +
      'the others, notes joined, tags united, annotations and a PDF moved; the others removed',
  });
documentBody(MergeBody, {
  examples: [
    {
      keep: EXAMPLE.keep,
      merge: [EXAMPLE.merge],
      expectedVersions: { [EXAMPLE.keep]: 1, [EXAMPLE.merge]: 1 },
    },
  ],
});

export const MergeResponse = z
  .object({
    resource: ResourceSchema.describe('The kept resource as it is now (its ETag in the header)'),
    merged: z.array(z.uuid()).describe('The resources merged into it, now removed'),
    filled: z
      .array(z.string())
      .describe(
        'What the kept resource took from the others: record fields (`creators`, `issued`, `doi`…), `title`, `url`, `notes`, `tags`, `annotations`, `pdf`',
      ),
  })
  .meta({ id: 'DuplicatesMergeResult' });
