/**
 * Notes and annotation comments are Markdown (headings, lists, emphasis, links, code, quotes, tables):
 * rendered with marked, then sanitised with sanitize-html to an allow-list of tags, so that whatever a
 * note holds can never become a script, a style, an image that calls out, or a link that runs code.
 * The dialect and the allow-list are ./note-markdown.ts's, which the web app renders with too
 * (web/src/lib/markdown.ts: DOMPurify in place of sanitize-html).
 */
import sanitizeHtml from 'sanitize-html';
import {
  NOTE_ATTRIBUTES,
  NOTE_LINK_REL,
  NOTE_LINK_SCHEMES,
  NOTE_TAGS,
  noteMarkdown,
} from './note-markdown.js';

const markdown = noteMarkdown();

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [...NOTE_TAGS],
  allowedAttributes: {
    ...Object.fromEntries(
      Object.entries(NOTE_ATTRIBUTES).map(([tag, attributes]) => [tag, [...attributes]]),
    ),
    // `rel` is set by the transform below, after the allow-list is read: it is allowed too.
    a: [...(NOTE_ATTRIBUTES.a ?? []), 'rel'],
  },
  allowedSchemes: [...NOTE_LINK_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: NOTE_LINK_REL } }),
    input: (tagName, attribs) =>
      attribs.type === 'checkbox'
        ? { tagName, attribs: { ...attribs, disabled: '' } }
        : { tagName: 'span', attribs: {} },
  },
};

/** A note or comment's Markdown as safe HTML. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml((markdown.parse(text) as string).trim(), ALLOWED);
}
