/**
 * Text from users and providers is kept as plain text (HTML tags stripped on input, so no stored
 * text is markup for a later reader); escaping happens on output.
 * "Plain text" here means: nothing in it that an HTML parser would read as markup, not even after its
 * entities are decoded, so `&lt;script&gt;` cannot come back out as `<script>` in a field.
 */
import sanitizeHtml from 'sanitize-html';
import { z } from 'zod';

/** What an HTML parser could read as markup: a tag, comment or declaration, or an entity (a browser decodes `&lt` without `;` too). */
const MARKUP = /<[a-z!?/]|&(?:#x?[0-9a-f]+|[a-z][a-z0-9]*);?/i;
/** Honest text is plain after one or two rounds; markup encoded deeper than this is an attack. */
const MAX_ROUNDS = 4;
const NO_TAGS: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  disallowedTagsMode: 'discard',
};

export function containsMarkup(text: string): boolean {
  return MARKUP.test(text);
}

/**
 * Removes every HTML tag (keeping the text inside, dropping scripts and styles), decodes entities, and
 * repeats while decoding revealed more markup; trims. Text without markup is returned as it is (trimmed).
 */
export function stripHtml(input: string): string {
  let text = input;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!MARKUP.test(text)) return text.trim();
    const next = decodeEntities(sanitizeHtml(text, NO_TAGS));
    if (next === text) return text.trim();
    text = next;
  }
  // Still changing: what is left that could be markup goes.
  return MARKUP.test(text) ? text.replace(/[<>&]/g, '').trim() : text.trim();
}

/** sanitize-html decodes every entity of its input and escapes only these in its output. */
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
};

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);
}

const count = (n: number) => n.toLocaleString('en-US');

/** What String.prototype.trim() and `\s` remove in JavaScript, spelled out: another regex engine's `\s` differs. */
const SPACE =
  '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** No U+0000 anywhere: every request refuses one (platform/request-input.ts). */
const NO_NUL_PATTERN = '^[^\\u0000]*$';
/**
 * Text a required field keeps: after any spaces, something that is not markup (a character other than
 * a space, `<` or `&`; or a `<` or `&` that cannot start a tag or an entity), and no U+0000. Blank,
 * whitespace-only and markup-first values are refused by the document as by the service; a value that
 * starts with a tag around text (`<b>Name</b>`) is kept by the service as its text, and the document
 * calls it invalid (JSON Schema cannot say which markup leaves text behind).
 */
export const KEPT_TEXT_PATTERN = `^[${SPACE}]*(?:[^${SPACE}<&\\u0000]|<(?:[^a-zA-Z!?/\\u0000]|$)|&(?:[^#a-zA-Z\\u0000]|$))[^\\u0000]*$`;

/**
 * A zod schema of plain text of at most `max` characters once HTML is stripped. The raw input may be
 * somewhat longer (markup is removed), but not unboundedly so. The published document states the
 * limit on the kept text (`maxLength: max`), the one a client can rely on.
 */
export function plainText(max: number, options: { required?: boolean; singleLine?: boolean } = {}) {
  const tooLong = `must be at most ${count(max)} characters`;
  const kept = z.string().max(max, tooLong);
  return z
    .string()
    .max(max * 4, tooLong)
    .transform((raw) => {
      const text = stripHtml(raw);
      return options.singleLine ? text.replace(/\s+/g, ' ') : text;
    })
    .pipe(options.required ? kept.min(1, 'is required') : kept)
    .meta({
      maxLength: max,
      ...(options.required
        ? {
            minLength: 1,
            pattern: KEPT_TEXT_PATTERN,
            description:
              'Plain text: HTML tags are stripped, and the limits apply to the text ' +
              'kept; a value with no text left (blank, spaces only, markup only) is refused',
          }
        : {
            pattern: NO_NUL_PATTERN,
            description:
              'Plain text: HTML tags are stripped, and the limits apply to the text kept',
          }),
    });
}
