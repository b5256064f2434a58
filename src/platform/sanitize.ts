/** Text from users is kept as plain text: HTML tags are stripped (spec §5.8); escaping happens on output. */
import sanitizeHtml from 'sanitize-html';
import { z } from 'zod';

/** Removes every HTML tag (keeping the text inside) and trims. Entities are decoded back to characters. */
export function stripHtml(input: string): string {
  // No '<' means no tag and no '&' no entity: sanitize-html would give the text back unchanged (its
  // escaping of '>' and '"' is undone below), and most fields are plain text; this skips its parser.
  if (!input.includes('<') && !input.includes('&')) return input.trim();
  const stripped = sanitizeHtml(input, { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' });
  return decodeEntities(stripped).trim();
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Escapes text for an HTML document (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const count = (n: number) => n.toLocaleString('en-US');

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
    .meta({ maxLength: max, ...(options.required ? { minLength: 1 } : {}), description: 'Plain text: HTML tags are stripped, and the limits apply to the text kept' });
}
