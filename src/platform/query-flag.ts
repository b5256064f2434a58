/**
 * A yes/no query parameter: `?dryRun=true`. The document calls it a boolean (a generated client
 * sends `true`/`false`), the handler gets a boolean, and any other value is a 400 naming the
 * parameter ("dryRun must be true or false"), not taken for false.
 */
import { z } from 'zod';

const WORDS: Record<string, boolean> = { true: true, false: false };

export function queryFlag(description: string) {
  return z
    .preprocess(
      (value) => (typeof value === 'string' && Object.hasOwn(WORDS, value) ? WORDS[value] : value),
      z.boolean({ error: 'must be true or false' }),
    )
    .default(false)
    .describe(description);
}
