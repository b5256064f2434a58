/**
 * How notes and annotation comments (Markdown) become HTML, written once for the two places that
 * render them: the service's share page (./markdown.ts, sanitised with sanitize-html) and the web app
 * (web/src/lib/markdown.ts, sanitised with DOMPurify, which imports this file). It depends only on
 * marked, which both builds have: the Markdown's dialect, and the allow-list each sanitiser is given.
 * - Raw HTML in the text is shown as text: nothing typed becomes markup but through Markdown's syntax.
 * - A picture would load from anywhere on each view: it is shown as its link instead.
 * - A note's headings sit inside the page's own: `#` becomes h4, never above.
 * - Links lead only to http(s) or mailto addresses, and carry `rel` NOTE_LINK_REL.
 */
import { Marked } from 'marked';
import { escapeHtml } from './escape-html.js';

const HEADING_SHIFT = 3;

/** The tags a rendered note may hold. */
export const NOTE_TAGS: readonly string[] = [
  'p',
  'br',
  'hr',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'em',
  'strong',
  'del',
  'code',
  'pre',
  'blockquote',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  // A task list's checkbox only (each sanitiser turns any other input into nothing), disabled.
  'input',
];

/** The attributes each tag may keep. */
export const NOTE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
  input: ['type', 'checked', 'disabled'],
};

/** The schemes a link may use; any other link loses its `href`. */
export const NOTE_LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

/** The `rel` of every link in a note: it opens no window back to the page, and vouches for nothing. */
export const NOTE_LINK_REL = 'noopener noreferrer nofollow ugc';

/** A marked instance that renders a note's Markdown as above (before it is sanitised). */
export function noteMarkdown(): Marked {
  const markdown = new Marked({ gfm: true, breaks: true, async: false });
  markdown.use({
    renderer: {
      html: ({ text, block }) => (block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text)),
      image: ({ href, text }) => escapeHtml(text ? `${text} (${href})` : href),
      heading({ tokens, depth }) {
        const level = Math.min(6, depth + HEADING_SHIFT);
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
    },
  });
  return markdown;
}
