/**
 * Notes and annotation comments are Markdown: rendered with marked and sanitised with DOMPurify to an
 * allow-list, as the service renders them on the share page (src/platform/markdown.ts): raw HTML in
 * the text is shown as text, pictures as their link, a link only to http(s) or mailto, and a note's
 * headings sit under the page's own (`#` is h4).
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

const HEADING_SHIFT = 3;
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

const ALLOWED_TAGS = [
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
];
const ALLOWED_ATTR = ['href', 'title', 'start', 'align', 'type', 'checked', 'disabled'];
const SAFE_LINK = /^(?:https?:|mailto:)/i;

let hooked = false;
function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href');
        if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute('href');
        node.setAttribute('rel', 'noopener noreferrer nofollow ugc');
        node.setAttribute('target', '_blank');
      }
      if (node.tagName === 'INPUT') {
        if (node.getAttribute('type') !== 'checkbox') node.remove();
        else node.setAttribute('disabled', '');
      }
    });
  }
  return DOMPurify;
}

/** A note or comment's Markdown as safe HTML. */
export function renderMarkdown(text: string): string {
  return purifier().sanitize((markdown.parse(text) as string).trim(), {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
  });
}
