/** Text from users is kept as plain text: HTML tags are stripped (spec §5.8); escaping happens on output. */
import sanitizeHtml from 'sanitize-html';

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
