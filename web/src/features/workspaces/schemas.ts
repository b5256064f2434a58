/**
 * What the workspace forms send, checked before it is sent with the limits the API publishes for the
 * same bodies (src/workspaces/schemas.ts). The server checks again (it strips HTML first, so it may
 * keep less), and its answer comes back at the field it names.
 */
import { z } from 'zod/mini';

const LIMITS = {
  workspaceName: 200,
  notes: 10_000,
  tags: 20,
  tag: 50,
  type: 50,
  filterText: 200,
  annotationBody: 10_000,
  shareDaysMax: 365,
} as const;

const atMost = (max: number) => `At most ${max.toLocaleString('en-US')} characters.`;

/** Text that must not be blank, trimmed. */
const requiredText = (max: number, missing: string) =>
  z.string().check(z.trim(), z.minLength(1, missing), z.maxLength(max, atMost(max)));

/** `a, b ,, c` → `['a', 'b', 'c']`; the server trims, drops duplicates and checks each tag again. */
function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** Tags typed as one line, separated by commas; a tag over its limit is named by its place, as the API's error is. */
const Tags = z.pipe(z.string(), z.transform(parseTags)).check(
  z.maxLength(LIMITS.tags, `At most ${LIMITS.tags} tags.`),
  z.superRefine((tags, context) => {
    const index = tags.findIndex((tag) => tag.length > LIMITS.tag);
    if (index >= 0)
      context.addIssue({
        code: 'custom',
        input: tags,
        message: `Tag ${index + 1}: must be at most ${LIMITS.tag} characters`,
      });
  }),
);

export const WorkspaceNameForm = z.object({
  name: requiredText(LIMITS.workspaceName, 'Enter a name.'),
});

export const AnnotationForm = z.object({
  body: requiredText(LIMITS.annotationBody, 'Write the annotation.'),
});

export const ResourceNotesForm = z.object({
  notes: z.string().check(z.maxLength(LIMITS.notes, atMost(LIMITS.notes))),
  tags: Tags,
});

/** The expiries a share link offers, in days. */
export const SHARE_EXPIRIES = [1, 7, 30, 90] as const;

/**
 * `access`: what someone who opens the link may do — read, or join as editor (the owner alone offers
 * "edit"); `allowJoin`: whether a signed-in visitor may join a "view" link as viewer (the owner alone
 * offers it; off by default).
 */
const SHARE_ACCESS = ['view', 'edit'] as const;
export const ShareLinkForm = z.object({
  expiresInDays: z.int().check(z.minimum(1), z.maximum(LIMITS.shareDaysMax)),
  access: z.enum(SHARE_ACCESS),
  allowJoin: z.boolean(),
});

/** The choice of the save dialog that creates a workspace named in the form. */
export const NEW_WORKSPACE = '__new__';

export const SaveToWorkspaceForm = z
  .object({
    workspace: z.string().check(z.minLength(1, 'Choose a workspace.')),
    newName: z.string(),
  })
  .check(
    z.superRefine(({ workspace, newName }, context) => {
      if (workspace !== NEW_WORKSPACE) return;
      const name = newName.trim();
      if (name === '')
        context.addIssue({
          code: 'custom',
          input: newName,
          path: ['newName'],
          message: 'Enter a name.',
        });
      else if (name.length > LIMITS.workspaceName)
        context.addIssue({
          code: 'custom',
          input: newName,
          path: ['newName'],
          message: atMost(LIMITS.workspaceName),
        });
    }),
  );

/** A year typed into a filter: empty (no bound) or 0–9999. */
const YearText = z.string().check(
  z.trim(),
  z.refine((text) => text === '' || /^\d{1,4}$/.test(text), 'A year, such as 2017.'),
);

/** The library list's filters (GET …/resources: q, tag, type, yearFrom, yearTo); empty is no filter. */
export const LibraryFilterForm = z
  .object({
    q: z.string().check(z.trim(), z.maxLength(LIMITS.filterText, atMost(LIMITS.filterText))),
    tag: z.string().check(z.trim(), z.maxLength(LIMITS.tag, atMost(LIMITS.tag))),
    type: z.string().check(z.trim(), z.maxLength(LIMITS.type, atMost(LIMITS.type))),
    yearFrom: YearText,
    yearTo: YearText,
  })
  .check(
    z.superRefine(({ yearFrom, yearTo }, context) => {
      if (yearFrom !== '' && yearTo !== '' && Number(yearTo) < Number(yearFrom))
        context.addIssue({
          code: 'custom',
          input: yearTo,
          path: ['yearTo'],
          message: 'Not before the first year.',
        });
    }),
  );

/** Tags to add to and take off the chosen resources (each comma-separated); at least one. */
export const BulkTagForm = z.object({ add: Tags, remove: Tags }).check(
  z.superRefine(({ add, remove }, context) => {
    if (add.length + remove.length === 0)
      context.addIssue({
        code: 'custom',
        input: add,
        path: ['add'],
        message: 'Enter a tag to add or to remove.',
      });
  }),
);

export const BulkMoveForm = z.object({
  target: z.string().check(z.minLength(1, 'Choose a workspace.')),
});

/** What the conflict dialogs show of the version saved now (a 412's `current`); null when it is not that. */
function versionParser<T>(schema: z.ZodMiniType<T>) {
  return (current: object): T | null => {
    const parsed = schema.safeParse(current);
    return parsed.success ? parsed.data : null;
  };
}
export const parseWorkspaceVersion = versionParser(
  z.object({ version: z.number(), name: z.string() }),
);
export const parseResourceVersion = versionParser(
  z.object({ version: z.number(), notes: z.string(), tags: z.array(z.string()) }),
);
export const parseAnnotationVersion = versionParser(
  z.object({ version: z.number(), body: z.string() }),
);
