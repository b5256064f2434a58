/** Request and response schemas of the citation routes (formatted references in a CSL style). */
import { z } from 'zod';
import { STYLE_SEARCH_LIMIT } from './styles.js';
import { LIST_FIELDS } from '../../platform/reply-shapes.js';

/** At most this many resources in one bibliography (citeproc formats them all at once, in the request). */
const CITE_MAX_RESOURCES = 100;

const CitationStyleSchema = z
  .object({
    id: z.string().describe('The CSL style id, as the official CSL repository names it'),
    shortTitle: z
      .string()
      .describe(
        'The name researchers use for it ("APA", "MLA", "IEEE"); the title when the style gives none',
      ),
    title: z.string().describe('The title the style file gives'),
    basedOn: z
      .string()
      .optional()
      .describe(
        'For a journal’s style that cites as another style does: that style’s id (its references look the same)',
      ),
  })
  .meta({ id: 'CitationStyle' });

export const CitationStylesQuery = z.object({
  q: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .optional()
    .describe('Words of the style name (all must match); none lists every style'),
});

export const CitationStylesResponse = z
  .object({ styles: z.array(CitationStyleSchema), ...LIST_FIELDS })
  .meta({
    id: 'CitationStyles',
    description:
      `The common styles (APA, MLA, Chicago, IEEE, Vancouver first) without a ` +
      `query; with one, the styles of the official CSL repository whose name ` +
      `holds every word, the common ones first, at most ${STYLE_SEARCH_LIMIT}`,
  });

/**
 * A query names a resource once per `resourceIds` (`?resourceIds=a&resourceIds=b`); one arrives as a
 * string. Required: the document says so (a preprocess step would publish it as optional).
 */
export const CiteQuery = z.object({
  resourceIds: z
    .union([
      z.uuid('must be a UUID'),
      z
        .array(z.uuid('must be a UUID'))
        .min(1, 'must name at least one resource')
        .max(CITE_MAX_RESOURCES, `must name at most ${CITE_MAX_RESOURCES} resources`),
    ])
    .transform((ids) => [...new Set(typeof ids === 'string' ? [ids] : ids)])
    .describe('Resources of this workspace to cite, the parameter repeated for each (1 to 100)'),
  style: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{0,99}$/,
      'must be a CSL style id (lower-case letters, digits and hyphens)',
    )
    .default('apa')
    .describe(
      'A CSL style id from GET /api/citation-styles (any style of the official CSL repository); an unknown one is a 400',
    ),
  format: z
    .enum(['text', 'html'])
    .default('text')
    .describe('Plain text, or HTML with every value escaped (italics and the like as tags)'),
});

const CitedKey = z
  .object({ resourceId: z.uuid(), citationKey: z.string() })
  .meta({ id: 'CitedKey' });

export const CiteResponse = z
  .object({
    style: CitationStyleSchema,
    format: z.enum(['text', 'html']),
    bibliography: z
      .string()
      .describe(
        'The reference list in the order the style gives it; in HTML a `div.csl-bib-body` with one `div.csl-entry` per reference',
      ),
    citation: z
      .string()
      .describe(
        'The in-text citation of all the resources together, e.g. "(Graves et al., 2014)" or "[1]"',
      ),
    citationKeys: z
      .array(CitedKey)
      .describe("Each resource's citation key, in the order asked: for \\cite{…} or [@…]"),
  })
  .meta({ id: 'Citations', description: 'Formatted references of the resources' });
