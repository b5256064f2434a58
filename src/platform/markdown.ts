/**
 * Notes and annotation comments are Markdown (headings, lists, emphasis, links, code, quotes, tables):
 * rendered with marked, then sanitised with sanitize-html to an allow-list of tags, so that whatever a
 * note holds can never become a script, a style, an image that calls out, or a link that runs code.
 * Raw HTML in the text is shown as text, not passed through. The web app renders the same Markdown the
 * same way (web/src/lib/markdown.ts: marked and DOMPurify).
 */
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from './sanitize.js';

const markdown = new Marked({ gfm: true, breaks: true, async: false });
markdown.use({
  renderer: {
    // Raw HTML in a note is text: nothing typed becomes markup but through Markdown's own syntax.
    html: ({ text, block }) => (block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text)),
    // A picture would load from anywhere on each view: shown as its link instead.
    image: ({ href, text }) => escapeHtml(text ? `${text} (${href})` : href),
  },
});

/** Headings of a note sit inside the page's own: `#` becomes h4, never above. */
const HEADING_SHIFT = 3;

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
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
    'input',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    input: ['type', 'checked', 'disabled'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer nofollow ugc' },
    }),
    input: (tagName, attribs) =>
      attribs.type === 'checkbox'
        ? { tagName, attribs: { ...attribs, disabled: '' } }
        : { tagName: 'span', attribs: {} },
    ...Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((depth) => [`h${depth}`, `h${Math.min(6, depth + HEADING_SHIFT)}`]),
    ),
  },
};
// `rel` is added by the transform, after the allow-list is read: it is allowed here too.
ALLOWED.allowedAttributes = { ...ALLOWED.allowedAttributes, a: ['href', 'title', 'rel'] };

/** A note or comment's Markdown as safe HTML. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml((markdown.parse(text) as string).trim(), ALLOWED);
}
