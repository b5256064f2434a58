/** The import route's query, the body as the document shows it (the route reads it itself), and the reply. */
import { z } from 'zod';
import { filePart } from '../../platform/openapi.js';
import { queryFlag } from '../../platform/query-flag.js';
import { IMPORT_LIMITS } from './limits.js';

const MB = IMPORT_LIMITS.fileBytes / (1024 * 1024);
const ENTRIES = IMPORT_LIMITS.entries.toLocaleString('en-US');

export const ImportQuery = z.object({
  dryRun: queryFlag('true: judge every entry and answer what would be imported, writing nothing'),
});

/** Content types read as one format; the generic ones are judged by their text. */
export const RAW_FORMATS = {
  'application/x-bibtex': 'bibtex',
  'application/x-research-info-systems': 'ris',
  'application/vnd.citationstyles.csl+json': 'csljson',
} as const;
export const GENERIC_TYPES = [
  'text/plain',
  'application/octet-stream',
  'application/json',
] as const;

const fileText = (format: string) => ({
  type: 'string',
  description: `${format}, at most ${MB} MB and ${ENTRIES} entries`,
});

const CSL_EXAMPLE = [
  {
    id: 'LeCun2015Deep',
    type: 'article-journal',
    title: 'Deep learning',
    author: [
      { family: 'LeCun', given: 'Yann' },
      { family: 'Bengio', given: 'Yoshua' },
    ],
    issued: { 'date-parts': [[2015, 5, 27]] },
    'container-title': 'Nature',
    DOI: '10.1038/nature14539',
  },
];

/** A JSON body: CSL items (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html), read for the fields import keeps. */
const cslJson = (format: string) => ({
  description: `${format}: an array of CSL items, or one item, at most ${MB} MB and ${ENTRIES} items`,
  anyOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }],
  examples: [CSL_EXAMPLE],
});

/** The request body as the document shows it: a multipart upload, or the file itself as the body. */
export const IMPORT_BODY = {
  required: true,
  description:
    `The citation file, at most ${MB} MB and ${ENTRIES} entries: as ` +
    `multipart field \`file\`, or as the body with its format's type. With a ` +
    `generic type (text/plain, application/octet-stream, application/json, ` +
    `or a multipart part typed so) the format is judged by the text: a JSON ` +
    `array or object is CSL-JSON, a \`TY  - \` line RIS, an \`@type{\` BibTeX.`,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: filePart(
            'application/octet-stream',
            "The file (BibTeX, BibLaTeX, RIS or CSL-JSON; the part's own type names the format, or a generic one lets the text say)",
          ),
        },
      },
    },
    'application/x-bibtex': { schema: fileText('BibTeX or BibLaTeX') },
    'application/x-research-info-systems': { schema: fileText('RIS') },
    'application/vnd.citationstyles.csl+json': { schema: cslJson('CSL-JSON') },
    'text/plain': { schema: fileText('BibTeX, RIS or CSL-JSON, judged by its text') },
    'application/octet-stream': { schema: fileText('BibTeX, RIS or CSL-JSON, judged by its text') },
    'application/json': { schema: cslJson('CSL-JSON (JSON is read as CSL-JSON)') },
  },
};

const Position = {
  index: z.number().int().min(0).describe('0-based position of the entry in the file'),
  line: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe('1-based line where the entry starts (BibTeX, RIS); null for CSL-JSON'),
  key: z
    .string()
    .nullable()
    .describe('The citation key (BibTeX) or ID (RIS, CSL-JSON), when the entry has one'),
};

const ImportedResource = z
  .object({
    id: z
      .uuid()
      .nullable()
      .describe('The new resource; null on a dry run and for an entry not written'),
    title: z.string(),
    authors: z.array(z.string()),
    year: z.string().nullable(),
    type: z.string().nullable(),
    url: z.string().nullable(),
    tags: z.array(z.string()),
    citationKey: z
      .string()
      .nullable()
      .describe(
        "The key it was (on a dry run: would be) imported under: the entry's own, exactly, " +
          'unless keyChanged says otherwise; null for an entry not written',
      ),
  })
  .meta({
    id: 'ImportedResource',
    description: 'The resource the entry becomes (in full at GET /api/workspaces/{id}/resources)',
  });

const KeyChanged = z
  .object({
    from: z.string().describe("The entry's own key"),
    to: z.string().describe('The key the resource has instead'),
    reason: z
      .enum(['taken', 'invalid'])
      .describe(
        'taken: another resource of the workspace (or an earlier entry of the file) holds it, ' +
          'in any case, so a, b… was added; invalid: BibTeX or biber could not read it (a space, ' +
          "a brace, a comma…), so one was made in Better BibTeX's pattern",
      ),
  })
  .meta({
    id: 'ImportKeyChange',
    description: "Present only when the resource could not keep the entry's own key as it was",
  });

const ImportEntry = z
  .discriminatedUnion('outcome', [
    z
      .object({
        ...Position,
        outcome: z.literal('imported'),
        resource: ImportedResource,
        keyChanged: KeyChanged.optional(),
      })
      .meta({ id: 'ImportEntryImported' }),
    z
      .object({
        ...Position,
        outcome: z.literal('would_import'),
        resource: ImportedResource,
        keyChanged: KeyChanged.optional(),
      })
      .meta({ id: 'ImportEntryWouldImport', description: 'A dry run: new, and would be imported' }),
    z
      .object({
        ...Position,
        outcome: z.literal('duplicate'),
        resource: ImportedResource,
        duplicateOf: z.object({
          resourceId: z
            .uuid()
            .nullable()
            .describe(
              'The resource it matches (in the workspace, or made from the earlier entry); null when that entry was not written (dry run)',
            ),
          entryIndex: z
            .number()
            .int()
            .min(0)
            .nullable()
            .describe(
              'The earlier entry of the same file it repeats; null when it matches a resource already in the workspace',
            ),
          title: z.string(),
        }),
      })
      .meta({
        id: 'ImportEntryDuplicate',
        description:
          'Already in the workspace or earlier in the file: same DOI, arXiv id, PMID or URL, or the same normalised title and year',
      }),
    z
      .object({ ...Position, outcome: z.literal('unreadable'), reason: z.string() })
      .meta({ id: 'ImportEntryUnreadable' }),
    z
      .object({
        ...Position,
        outcome: z.literal('no_room'),
        resource: ImportedResource,
        reason: z.string(),
      })
      .meta({
        id: 'ImportEntryNoRoom',
        description: 'New, but the workspace was full: not imported',
      }),
  ])
  .meta({ id: 'ImportEntry' });

export const ImportResponse = z
  .object({
    dryRun: z.boolean(),
    format: z.enum(['bibtex', 'ris', 'csljson']),
    encoding: z
      .string()
      .describe(
        'The encoding the file was read in (WHATWG name): the charset it was ' +
          'sent with, else a byte order mark, else utf-8 when it is valid UTF-8, ' +
          'else what a JabRef "% Encoding:" line names, else windows-1252',
      ),
    counts: z.object({
      entries: z.number().int(),
      imported: z.number().int().describe('Imported (on a dry run: would be imported)'),
      duplicates: z.number().int(),
      unreadable: z.number().int(),
      noRoom: z.number().int(),
      keysChanged: z
        .number()
        .int()
        .describe('Entries imported under another key than their own (each says why: keyChanged)'),
    }),
    entries: z.array(ImportEntry).describe('One per entry of the file, in file order'),
  })
  .meta({ id: 'ImportReport' });
