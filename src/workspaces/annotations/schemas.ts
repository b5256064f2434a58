/** Schemas of annotations' requests (their reply's shape, AnnotationSchema, is part of a resource's: ../schemas.ts). */
import { z } from 'zod';
import { documentBody } from '../../platform/openapi.js';
import { plainText } from '../../platform/sanitize.js';
import { DateTime, jsonBytes, LIMITS, staleReply } from '../schemas.js';
import { AnnotationColorSchema } from './colors.js';

export const StoredHighlights = z
  .object({
    pdf: z
      .object({
        page: z.number().int(),
        quote: z.string(),
        rects: z.array(
          z.object({
            x: z.number(),
            y: z.number(),
            width: z.number(),
            height: z.number(),
            page: z.number().int().optional(),
          }),
        ),
      })
      .optional()
      .describe('The PDF anchor, as sent'),
  })
  .catchall(z.unknown())
  .meta({ id: 'AnnotationHighlights' });

export const AnnotationSchema = z
  .object({
    id: z.uuid(),
    resourceId: z.uuid(),
    userId: z.uuid(),
    authorName: z.string().nullable().describe('The name of the account that wrote it'),
    body: z.string(),
    color: AnnotationColorSchema,
    highlights: StoredHighlights,
    version: z
      .number()
      .int()
      .min(1)
      .describe(
        "Starts at 1, one more on every change; the reply's ETag is its version (see If-Match)",
      ),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Annotation' });

const HighlightRange = z
  .object({
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    text: plainText(LIMITS.highlightText).optional(),
    color: z
      .string()
      .regex(/^[#a-zA-Z0-9(),.% -]{1,32}$/, 'must be a colour name or code')
      .optional(),
  })
  .refine((range) => range.end >= range.start, {
    path: ['end'],
    message: 'must not be before start',
  });

/** A fraction of the page's width or height, from its top left corner. */
const PageFraction = z.number().min(0).max(1);
/** Rounding of the client's arithmetic (x + width may come out a hair over 1). */
const FRACTION_SLACK = 1e-6;

const PdfRect = z
  .strictObject({
    x: PageFraction,
    y: PageFraction,
    width: PageFraction,
    height: PageFraction,
    page: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.pdfPage)
      .optional()
      .describe(
        "The page the box is on, when a selection runs past its first page (omitted: the anchor's page)",
      ),
  })
  .refine((rect) => rect.x + rect.width <= 1 + FRACTION_SLACK, {
    path: ['width'],
    message: 'must end within the page (x + width ≤ 1)',
  })
  .refine((rect) => rect.y + rect.height <= 1 + FRACTION_SLACK, {
    path: ['height'],
    message: 'must end within the page (y + height ≤ 1)',
  })
  .meta({
    id: 'PdfRect',
    description:
      'A box on a page as fractions 0..1 of its width and height, measured from its top left corner',
  });

/** Where a PDF annotation sits: the page, the text selected and its boxes on the page (docs/api.md, Annotations of a PDF). */
const PdfAnchor = z
  .strictObject({
    page: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.pdfPage)
      .describe('The page the selection starts on, from 1'),
    quote: plainText(LIMITS.highlightText, { required: true }).describe(
      'The text selected, as plain text',
    ),
    rects: z
      .array(PdfRect)
      .min(1, 'must hold a box')
      .max(LIMITS.pdfRects, `must hold at most ${LIMITS.pdfRects} boxes`)
      .describe(
        'The boxes the selection covers, one or more a line; a box on a later page says its page',
      ),
  })
  .refine((anchor) => anchor.rects.every((rect) => (rect.page ?? anchor.page) >= anchor.page), {
    path: ['rects'],
    message: 'must lie on the anchor’s page or after it',
  })
  .meta({
    id: 'PdfAnchor',
    examples: [
      {
        page: 2,
        quote: 'serves results in milliseconds',
        rects: [{ x: 0.12, y: 0.31, width: 0.42, height: 0.015 }],
      },
      {
        page: 3,
        quote: 'continues on the next page',
        rects: [
          { x: 0.12, y: 0.94, width: 0.3, height: 0.015 },
          { x: 0.12, y: 0.08, width: 0.2, height: 0.015, page: 4 },
        ],
      },
    ],
  });

/**
 * `{ ranges?: [{ start, end, text?, color? }], pdf?: { page, quote, rects: [{ x, y, width, height, page? }] } }` and any other members,
 * at most 16 KB of JSON (docs/design.md, Request shapes).
 */
const Highlights = z
  .object({
    ranges: z.array(HighlightRange).max(LIMITS.highlightRanges).optional(),
    pdf: PdfAnchor.optional(),
  })
  .catchall(z.unknown())
  .refine(
    (value) => jsonBytes(value) <= LIMITS.highlightsBytes,
    `must be at most ${LIMITS.highlightsBytes / 1024} KB of JSON`,
  )
  .describe(
    `{ ranges: [{ start, end, text?, color? }] } (ranges of the abstract), ` +
      `{ pdf: { page, quote, rects } } (a selection in the PDF), or any other ` +
      `object, at most ${LIMITS.highlightsBytes / 1024} KB of JSON`,
  );

/** What an annotation's `highlights` hold in a reply: the request's shape (a `pdf` member that is not an anchor is left out). */
export const AnnotationCreateBody = z
  .strictObject({
    body: plainText(LIMITS.annotationBody, { required: true }),
    color: AnnotationColorSchema.optional().describe(
      "The highlight's colour, one of a fixed palette; yellow when not sent",
    ),
    highlights: Highlights.optional(),
  })
  .meta({
    id: 'AnnotationCreate',
  });
documentBody(AnnotationCreateBody, {
  examples: [
    {
      body: 'The key idea of the paper',
      highlights: { ranges: [{ start: 0, end: 12, text: 'The key idea', color: 'yellow' }] },
    },
    { body: 'Compare with the 2019 results' },
    {
      body: 'Their latency claim',
      color: 'red',
      highlights: {
        pdf: {
          page: 2,
          quote: 'serves results in milliseconds',
          rects: [{ x: 0.12, y: 0.31, width: 0.42, height: 0.015 }],
        },
      },
    },
  ],
});

export const AnnotationUpdateBody = z
  .strictObject({
    body: plainText(LIMITS.annotationBody, { required: true }).optional(),
    color: AnnotationColorSchema.optional(),
    highlights: Highlights.optional(),
  })
  .refine(
    (body) => body.body !== undefined || body.color !== undefined || body.highlights !== undefined,
    {
      path: ['body'],
      message: 'is required when nothing else is sent: send body, color or highlights',
    },
  )
  .meta({ id: 'AnnotationUpdate', minProperties: 1 });
documentBody(AnnotationUpdateBody, {
  examples: [{ body: 'The key idea, restated in section 4' }, { color: 'green' }],
});

export const AnnotationStaleResponse = staleReply('AnnotationStale', AnnotationSchema);
