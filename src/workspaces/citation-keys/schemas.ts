/** Citation keys in requests and replies. */
import { z } from 'zod';
import { CITATION_KEY_MAX, citationKeyProblem } from '../../records/index.js';

/** A key a person gives: kept exactly as sent, refused (400, naming why) when BibTeX or biber could not read it. */
export const CitationKeyInput = z
  .string({ error: 'must be a citation key (a resource always has one)' })
  .max(CITATION_KEY_MAX, `must be at most ${CITATION_KEY_MAX} characters`)
  .superRefine((key, ctx) => {
    const problem = citationKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    'The key documents cite it by (`\\cite{…}`, `[@…]`): printable ASCII without spaces or ' +
      `, { } ( ) = " ' # % ~ \\, at most ${CITATION_KEY_MAX} characters; unique in its workspace ` +
      'whatever the case (a key another resource holds is a 409 citation_key_taken)',
  );

export const CitationKeyReply = z
  .string()
  .describe(
    'The key documents cite it by: the one an imported entry came with, else made once when it ' +
      "was added in Better BibTeX's default pattern (vaswani2017attention, then a, b… when taken); " +
      'it changes only when a person changes it',
  );

export const MovedKeyChange = z
  .object({
    resourceId: z.uuid(),
    from: z.string().describe('Its key in the workspace it came from'),
    to: z.string().describe('Its key in the target workspace'),
  })
  .meta({ id: 'MovedKeyChange' });
