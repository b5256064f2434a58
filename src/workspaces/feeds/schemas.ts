/** Bibliography feeds in requests and replies. */
import { z } from 'zod';
import { LIST_FIELDS } from '../../platform/reply-shapes.js';
import { documentBody } from '../../platform/openapi.js';
import { ExportQuery } from '../schemas.js';

/** At most this many feeds per member and workspace. */
export const FEEDS_PER_MEMBER = 10;

/** A feed answers in one of the export's formats. */
const FeedFormat = ExportQuery.shape.format.unwrap().describe('An export format');

export const FeedCreateBody = z
  .strictObject({ format: FeedFormat.default('bibtex') })
  .meta({ id: 'FeedCreateInput' });
documentBody(FeedCreateBody, { examples: [{ format: 'bibtex' }, { format: 'csljson' }] });

export const FeedParams = z.object({
  id: z.uuid('must be a UUID'),
  feedId: z.uuid('must be a UUID'),
});

/** `<secret>.<extension>`: the secret is 43 URL-safe characters (256 bits). */
export const FeedFileParams = z.object({
  file: z
    .string()
    .max(60, 'is not a feed')
    .describe('The secret of the feed and its extension, as its URL has them'),
});

const FeedFields = {
  id: z.uuid(),
  workspaceId: z.uuid(),
  format: FeedFormat,
  createdAt: z.iso.datetime(),
};

const FeedSchema = z.object(FeedFields).meta({
  id: 'Feed',
  description:
    'A feed as listed: its URL was shown once, when it was made, and is kept only hashed',
});

export const FeedCreatedSchema = z
  .object({
    ...FeedFields,
    url: z
      .url()
      .describe(
        'The feed: answers the export without a session (keep it secret; revoke the feed if it leaks). ' +
          'Shown this once: only its hash is kept',
      ),
  })
  .meta({ id: 'FeedCreated' });

export const FeedListResponse = z
  .object({
    feeds: z.array(FeedSchema).describe("The caller's feeds of the workspace, newest first"),
    ...LIST_FIELDS,
  })
  .meta({ id: 'FeedList' });
