/**
 * Notes and annotation comments are Markdown: rendered and sanitised as the service renders them on
 * the share page (src/platform/markdown.ts), with the same dialect and allow-list
 * (src/platform/note-markdown.ts, imported from the service's tree: it depends only on marked), here
 * sanitised with DOMPurify: raw HTML in the text is shown as text, pictures as their link, a link only
 * to http(s) or mailto, and a note's headings sit under the page's own (`#` is h4).
 */
import DOMPurify from 'dompurify';
import {
  NOTE_ATTRIBUTES,
  NOTE_LINK_REL,
  NOTE_LINK_SCHEMES,
  NOTE_TAGS,
  noteMarkdown,
} from '../../../src/platform/note-markdown';

const markdown = noteMarkdown();

const ALLOWED_TAGS = [...NOTE_TAGS];
const ALLOWED_ATTR = [...new Set(Object.values(NOTE_ATTRIBUTES).flat())];
const SAFE_LINK = new RegExp(`^(?:${NOTE_LINK_SCHEMES.join('|')}):`, 'i');

let hooked = false;
function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href');
        if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute('href');
        node.setAttribute('rel', NOTE_LINK_REL);
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
