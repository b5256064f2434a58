/**
 * Escapes text for an HTML document (element content and quoted attributes). The one escaping of the
 * service (mail, the share page, notes' Markdown) and of the web app's Markdown (web/src/lib/markdown.ts
 * imports it through ./note-markdown.ts): it depends on nothing, so both builds can take it.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
