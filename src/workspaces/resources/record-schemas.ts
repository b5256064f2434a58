/**
 * The record's fields in requests and replies (src/records): every CSL 1.0.2 variable under its name
 * here, structured creators, dates as parts. A request is checked field by field, and each refusal
 * names its field: DOI syntax, ISBN and ISSN check digits, real dates, page ranges, lengths.
 */
import { z } from 'zod';
import { plainText } from '../../platform/sanitize.js';
import {
  ABSTRACT_MAX,
  bareDoi,
  CREATOR_ROLES,
  CREATORS_MAX,
  daysIn,
  DATE_VARIABLES,
  isArxivCategory,
  isValidIsbn,
  isValidIssn,
  listed,
  NAME_PART_MAX,
  RECORD_TEXT_MAX,
  RECORD_TYPES,
  recordTypeOf,
  type RecordType,
  TEXT_VARIABLES,
  type BibRecord,
  type DateField,
  type TextField,
} from '../../records/index.js';
import { normaliseArxivId } from './work-key.js';
import { CitationKeyInput } from '../citation-keys/schemas.js';

const NamePart = plainText(NAME_PART_MAX, { singleLine: true });

export const CreatorSchema = z
  .object({
    role: z.enum(CREATOR_ROLES),
    family: z.string().optional(),
    given: z.string().optional(),
    droppingParticle: z.string().optional(),
    nonDroppingParticle: z.string().optional(),
    suffix: z.string().optional(),
    literal: z.string().optional().describe('An organisation, or a name kept whole'),
  })
  .meta({ id: 'Creator' });

const CreatorInput = z
  .strictObject({
    role: z.enum(CREATOR_ROLES).default('author').describe('CSL name role; author when absent'),
    family: NamePart.optional(),
    given: NamePart.optional(),
    droppingParticle: NamePart.optional().describe('"van" of "Ludwig van Beethoven"'),
    nonDroppingParticle: NamePart.optional().describe('"van" of "Vincent van Gogh"'),
    suffix: NamePart.optional().describe('"Jr.", "III"'),
    literal: NamePart.optional().describe('An organisation, or a name kept whole (one field)'),
  })
  .transform((creator) =>
    Object.fromEntries(Object.entries(creator).filter(([, value]) => value !== '')),
  )
  .superRefine((creator, ctx) => {
    if (creator.literal && (creator.family || creator.given))
      ctx.addIssue({
        code: 'custom',
        path: ['literal'],
        message: 'is a name in one field: send it without family and given',
      });
    else if (!creator.literal && !creator.family && !creator.given)
      ctx.addIssue({
        code: 'custom',
        path: ['family'],
        message: 'is required (or given, or literal for an organisation)',
      });
  })
  .describe('A name with its role: family and given (with particles and suffix), or literal');

const Year = z
  .number()
  .int('must be a whole number')
  .min(-9999, 'must be at least -9999')
  .max(9999, 'must be at most 9999')
  .refine((year) => year !== 0, 'must not be 0 (1 BC is -1)');
const Month = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be 1–12')
  .max(12, 'must be 1–12');
const Day = z.number().int('must be a whole number').min(1, 'must be 1–31').max(31, 'must be 1–31');

function checkDay(
  date: { year?: number; month?: number; day?: number },
  ctx: z.RefinementCtx,
  path: (string | number)[] = [],
) {
  if (date.day !== undefined && date.month === undefined)
    ctx.addIssue({ code: 'custom', path: [...path, 'month'], message: 'is required with a day' });
  else if (date.day !== undefined && date.year !== undefined && date.month !== undefined)
    if (date.day > daysIn(date.year, date.month))
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'day'],
        message: `must be a day of the month (${date.year}-${String(date.month).padStart(2, '0')} has ${daysIn(date.year, date.month)})`,
      });
}

const Season = z.number().int('must be a whole number').min(1, 'must be 1–4').max(4, 'must be 1–4');

const DateEnd = z.strictObject({
  year: Year,
  month: Month.optional(),
  day: Day.optional(),
  season: Season.optional().describe("The end's season: 1–4, spring to winter"),
});

export const RecordDateSchema = z
  .object({
    year: z.number().int().optional(),
    month: z.number().int().optional(),
    day: z.number().int().optional(),
    season: z.number().int().optional(),
    circa: z.boolean().optional(),
    end: z
      .object({
        year: z.number().int(),
        month: z.number().int().optional(),
        day: z.number().int().optional(),
        season: z.number().int().optional(),
      })
      .optional()
      .describe('The end of a range (a season of its own: "Spring 1999 – Summer 2001")'),
    openEnd: z
      .literal(true)
      .optional()
      .describe('A range begun and not ended ("1987–"; CSL\'s [[1987], [0]]), without `end`'),
    literal: z.string().optional(),
  })
  .meta({ id: 'RecordDate' });

const DateObject = z
  .strictObject({
    year: Year.optional(),
    month: Month.optional(),
    day: Day.optional(),
    season: Season.optional(),
    circa: z.boolean().optional(),
    end: DateEnd.optional().describe('The end of a range'),
    openEnd: z
      .literal(true)
      .optional()
      .describe('A range begun and not ended ("1987–"): send no `end` with it'),
    literal: plainText(100, { singleLine: true })
      .optional()
      .describe('A date that is not a calendar date ("Spring 2004", "forthcoming")'),
  })
  .superRefine((date, ctx) => {
    if (date.year === undefined && !date.literal)
      ctx.addIssue({ code: 'custom', path: ['year'], message: 'is required (or a literal date)' });
    if (date.month !== undefined && date.year === undefined)
      ctx.addIssue({ code: 'custom', path: ['year'], message: 'is required with a month' });
    checkDay(date, ctx);
    if (date.end) checkDay(date.end, ctx, ['end']);
    if (date.openEnd && date.end)
      ctx.addIssue({ code: 'custom', path: ['openEnd'], message: 'is a range without an end' });
    else if ((date.openEnd || date.end) && date.year === undefined)
      ctx.addIssue({ code: 'custom', path: ['year'], message: 'is required in a range' });
  });

/** A date as parts, or as `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
const DateInput = z
  .union([
    z
      .string()
      .trim()
      .regex(
        /^-?\d{1,4}(?:-\d{2}(?:-\d{2})?)?$/,
        'must be YYYY, YYYY-MM or YYYY-MM-DD, or { year, month, day }',
      )
      .transform((text) => {
        const negative = text.startsWith('-');
        const [year, month, day] = text.replace(/^-/, '').split('-').map(Number);
        const date: z.input<typeof DateObject> = { year: negative ? -year! : year! };
        if (month) date.month = month;
        if (day) date.day = day;
        return date;
      })
      .pipe(DateObject),
    DateObject,
  ])
  .describe('A date as parts { year, month, day }, or as YYYY, YYYY-MM or YYYY-MM-DD');

const line = (max = RECORD_TEXT_MAX) => plainText(max, { singleLine: true });

/** Fields with a rule of their own beyond plain text and a length. */
const SPECIAL: Partial<Record<TextField, z.ZodType<string | undefined>>> = {
  abstract: plainText(ABSTRACT_MAX),
  doi: line(300).transform((value, ctx) => {
    if (!value) return undefined;
    const doi = bareDoi(value);
    if (!doi) ctx.addIssue({ code: 'custom', message: 'must be a DOI: 10.<registrant>/<suffix>' });
    return doi ?? value;
  }),
  isbn: line(200).superRefine((value, ctx) => {
    const bad = listed(value).find((isbn) => !isValidIsbn(isbn));
    if (bad)
      ctx.addIssue({
        code: 'custom',
        message: `holds ${bad}, which is not an ISBN-10 or ISBN-13 (its check digit is wrong)`,
      });
  }),
  issn: line(100).superRefine((value, ctx) => {
    const bad = listed(value).find((issn) => !isValidIssn(issn));
    if (bad)
      ctx.addIssue({
        code: 'custom',
        message: `holds ${bad}, which is not an ISSN (NNNN-NNNC with its check digit)`,
      });
  }),
  pmid: line(20).pipe(z.string().regex(/^(?:\d{1,9})?$/, 'must be a PubMed id (digits)')),
  pmcid: line(20).pipe(z.string().regex(/^(?:PMC\d{1,9})?$/, 'must be a PMC id (PMC and digits)')),
  pages: line(100).pipe(
    z
      .string()
      .regex(
        /^(?:[\p{L}\p{N}.]+(?:\s*[-–—]+\s*[\p{L}\p{N}.]+)?(?:\s*[,;&]\s*[\p{L}\p{N}.]+(?:\s*[-–—]+\s*[\p{L}\p{N}.]+)?)*)?$/u,
        'must be a page or a range ("123", "123–130", "e1001", "S12-S15", "1-5, 9")',
      ),
  ),
};

function textField(field: TextField): z.ZodType<string | undefined> {
  return SPECIAL[field] ?? line();
}

/** `null` clears a field in a change; an empty string does too. */
const clearable = <T extends z.ZodType>(schema: T) => schema.nullable();

const textShape = Object.fromEntries(
  (Object.keys(TEXT_VARIABLES) as TextField[]).map((field) => [
    field,
    clearable(textField(field)).optional(),
  ]),
) as Record<TextField, z.ZodOptional<z.ZodNullable<z.ZodType<string | undefined>>>>;

const dateShape = Object.fromEntries(
  (Object.keys(DATE_VARIABLES) as DateField[]).map((field) => [
    field,
    clearable(DateInput).optional(),
  ]),
) as Record<DateField, z.ZodOptional<z.ZodNullable<typeof DateInput>>>;

/** The record's fields a create or change may send (`title`, `url`, `type`, `tags` and `notes` are the resource's). */
export const RecordFieldsInput = {
  creators: clearable(
    z.array(CreatorInput).max(CREATORS_MAX, `must list at most ${CREATORS_MAX} names`),
  )
    .optional()
    .describe(
      'Structured names with their role (authors, editors, translators…); replaces them all',
    ),
  arxivId: clearable(
    line(50).refine(
      (id) => !id || normaliseArxivId(id) !== null,
      'must be an arXiv id (2101.00001, hep-th/9901001)',
    ),
  ).optional(),
  arxivPrimaryClass: clearable(
    line(50).refine(
      (category) => !category || isArxivCategory(category),
      'must be an arXiv category (astro-ph, cs.LG, math.AG)',
    ),
  )
    .optional()
    .describe(
      "The arXiv id's primary category (BibTeX's primaryClass); a change of arxivId without it clears it",
    ),
  ...textShape,
  citationKey: CitationKeyInput.optional(),
  ...dateShape,
};

/**
 * A record type: CSL 1.0.2's (`preprint` for its `article`), or an older name of one (`article`,
 * `conference-paper`). Any other word is kept: the resource is a `document` with that word as its
 * genre (typedFrom), as the interface's free `type` allowed.
 */
export const RecordTypeInput = plainText(50, { singleLine: true })
  .transform((type) => type.trim().toLowerCase())
  .meta({
    description: `One of ${RECORD_TYPES.join(', ')} (article is read as article-journal); any other word makes a document of that genre`,
  });

/** The type a request's `type` names, and the genre an unknown word becomes. */
export function typedFrom(type: string | undefined): { type?: RecordType; genre?: string } {
  if (!type) return {};
  const known = recordTypeOf(type === 'article' ? 'article-journal' : type);
  return known ? { type: known } : { type: 'document', genre: type };
}

type RecordInput = { [K in keyof typeof RecordFieldsInput]?: unknown };

/** The record a create body describes: its record fields, with nulls and empty values left out. */
export function recordFromInput(input: RecordInput): BibRecord {
  const record: Record<string, unknown> = {};
  for (const field of Object.keys(RecordFieldsInput)) {
    const value = input[field as keyof RecordInput];
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    record[field] = field === 'arxivId' ? normaliseArxivId(value as string) : value;
  }
  return record;
}

/** A record changed by the fields a change sends: a value replaces, `null` or `''` clears. */
export function changedRecord(current: BibRecord, input: RecordInput): BibRecord {
  const record: Record<string, unknown> = { ...current };
  for (const field of Object.keys(RecordFieldsInput)) {
    const value = input[field as keyof RecordInput];
    // The resource's own column (citation-keys/), never the record's.
    if (value === undefined || field === 'citationKey') continue;
    if (value === null || value === '' || (Array.isArray(value) && value.length === 0))
      delete record[field];
    else record[field] = field === 'arxivId' ? normaliseArxivId(value as string) : value;
  }
  // A category goes with its id: another id (or none) without one leaves none.
  if (
    input.arxivId !== undefined &&
    input.arxivPrimaryClass === undefined &&
    record.arxivId !== current.arxivId
  )
    delete record.arxivPrimaryClass;
  return record;
}

/** The record's fields of a resource reply: `creators` always, the others when set. */
export const RecordFieldsReply = {
  creators: z
    .array(CreatorSchema)
    .describe('Structured names with their role; `authors` is derived from them'),
  arxivId: z.string().optional(),
  arxivPrimaryClass: z
    .string()
    .optional()
    .describe("The arXiv id's primary category (`astro-ph`, `cs.LG`): BibTeX's primaryClass"),
  untitled: z
    .literal(true)
    .optional()
    .describe(
      'The work has no title of its own (a legal case, a letter; CSL allows it): `title` is a ' +
        'display title ("Untitled legal case"), left out of exports and citations; a change ' +
        'that sends a title clears it',
    ),
  markup: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'CSL rich text (<i>, <b>, <sup>, <sub>, small caps and nocase spans) of fields that came ' +
        "with it, by field (title too; a BibTeX title's braces as nocase spans): CSL-JSON, BibTeX " +
        'and BibLaTeX exports and citations use it while the field is unchanged; the field ' +
        'itself is plain text',
    ),
  otherVariables: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "A CSL-JSON import's variables the record has no field for (journalAbbreviation, multi, " +
        'key…), kept as they came for the CSL-JSON export and citations',
    ),
  ...Object.fromEntries(
    (Object.keys(TEXT_VARIABLES) as TextField[]).map((field) => [
      field,
      z.string().optional().describe(`CSL ${TEXT_VARIABLES[field]}`),
    ]),
  ),
  ...Object.fromEntries(
    (Object.keys(DATE_VARIABLES) as DateField[]).map((field) => [
      field,
      RecordDateSchema.optional().describe(`CSL ${DATE_VARIABLES[field]}`),
    ]),
  ),
} as const;
