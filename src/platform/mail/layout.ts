/**
 * The one layout of every mail: a capability gives its words as blocks (paragraphs and lists of
 * plain text, emphasis and links), and this renders both parts from them, the text part and the HTML
 * part, so the two always say the same. Every value is escaped here, with the one `escapeHtml`
 * (platform/sanitize.ts), and only an http(s) address becomes a link in the HTML part: a capability
 * never writes markup.
 */
import { escapeHtml } from '../escape-html.js';

/** A link: in the text part `text: href`, in the HTML part an anchor (emphasised when `strong`). */
export interface MailLink {
  text: string;
  href: string;
  strong?: boolean;
}

/** A run of a line: plain text, emphasised text, or a link. */
export type MailInline = string | { strong: string } | MailLink;

/** A line: plain text, or runs one after another. */
export type MailLine = string | MailInline[];

/** A paragraph (one line), or a list whose items are one or more lines each. */
export type MailBlock = MailLine | { list: MailLine[][]; ordered?: boolean };

const isLink = (run: MailInline): run is MailLink => typeof run === 'object' && 'href' in run;
const isList = (block: MailBlock): block is { list: MailLine[][]; ordered?: boolean } =>
  typeof block === 'object' && !Array.isArray(block);
const runsOf = (line: MailLine): MailInline[] => (typeof line === 'string' ? [line] : line);

/** Only these become anchors; anything else a value holds (`javascript:`, `data:`) stays text. */
const linkable = (href: string) => /^https?:\/\//i.test(href);

function textOfRun(run: MailInline): string {
  if (typeof run === 'string') return run;
  if (!isLink(run)) return run.strong;
  return run.text === run.href ? run.href : `${run.text}: ${run.href}`;
}

function htmlOfRun(run: MailInline): string {
  if (typeof run === 'string') return escapeHtml(run);
  if (!isLink(run)) return `<strong>${escapeHtml(run.strong)}</strong>`;
  const label = escapeHtml(run.text);
  const shown = linkable(run.href) ? `<a href="${escapeHtml(run.href)}">${label}</a>` : label;
  return run.strong ? `<strong>${shown}</strong>` : shown;
}

const textOfLine = (line: MailLine) => runsOf(line).map(textOfRun).join('');
const htmlOfLine = (line: MailLine) => runsOf(line).map(htmlOfRun).join('');

function textOfList(items: MailLine[][], ordered: boolean): string {
  const roomy = items.some((item) => item.length > 1);
  return items
    .map((item, index) => {
      const marker = ordered ? `${index + 1}. ` : '- ';
      const indent = ' '.repeat(marker.length);
      return item.map((line, at) => (at === 0 ? marker : indent) + textOfLine(line)).join('\n');
    })
    .join(roomy ? '\n\n' : '\n');
}

function htmlOfList(items: MailLine[][], ordered: boolean): string {
  const tag = ordered ? 'ol' : 'ul';
  const entries = items.map((item) => `<li>${item.map(htmlOfLine).join('<br>')}</li>`);
  return `<${tag}>${entries.join('')}</${tag}>`;
}

/** Both parts of a mail from its blocks. */
export function renderMailBody(blocks: MailBlock[]): { text: string; html: string } {
  const text = blocks
    .map((block) =>
      isList(block) ? textOfList(block.list, block.ordered ?? false) : textOfLine(block),
    )
    .join('\n\n');
  const html = blocks
    .map((block) =>
      isList(block)
        ? htmlOfList(block.list, block.ordered ?? false)
        : `<p>${htmlOfLine(block)}</p>`,
    )
    .join('\n');
  return {
    text: `${text}\n`,
    html: `<!doctype html>\n<html><body style="font-family: system-ui, sans-serif; line-height: 1.5">\n${html}\n</body></html>\n`,
  };
}
