/**
 * CSL's rich text (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html#html-like-formatting-tags):
 * a CSL title may hold the few tags CSL-JSON knows (`<i>`, `<b>`, `<sup>`, `<sub>`, small caps as
 * `<sc>` or a span, `nocase` and `nodecor` spans, which the BibTeX reader writes for `\textit{}`, `$^2$`, `{DNA}`…) and is otherwise
 * text: `n<m holds` is a title, not a tag. An HTML sanitiser reads `<m holds` as an unclosed tag and
 * drops the rest of the title; this removes CSL's tags only.
 *
 * A record keeps a field's text plain (what lists, search and the BibTeX and RIS exports read) and,
 * beside it in `markup`, the rich text it came with: CSL-JSON export and citations use the rich text
 * while the plain text is still the same (a `nocase` span keeps "iPod" from a style's sentence case),
 * so that a field edited since simply drops its old markup.
 *
 * A title imported from BibTeX keeps its case protection here: each brace group BibTeX protects
 * (`{BERT}`, `t-{SNE}`) becomes a `nocase` span (import/formats.ts), which the BibTeX and BibLaTeX
 * exports write back as braces (workspaces/bibtex.ts); editing the title drops it with the rest.
 */
import { TITLE_MAX, type BibRecord } from './record.js';
import { TEXT_VARIABLES, type TextField } from './vocabulary.js';

const CSL_MARKUP =
  /<\/?(?:i|b|sup|sub|sc)>|<span\s+(?:style="font-variant:\s*small-caps;?"|class="(?:nocase|nodecor)")\s*>|<\/span>/gi;

const HAS_CSL_MARKUP = new RegExp(CSL_MARKUP.source, 'i');

export function cslPlainText(text: string): string {
  return text.replace(CSL_MARKUP, '');
}

/** One of CSL's tags, by what it does (`sc` for both small-caps forms), or a closing `</span>`. */
export type CslTag = 'i' | 'b' | 'sup' | 'sub' | 'sc' | 'nocase' | 'nodecor';
export type CslMarkupPart =
  { open: CslTag } | { close: Exclude<CslTag, 'nocase' | 'nodecor'> | 'span' } | { text: string };

/** Rich text cut into CSL's tags and the text between them (the writers of BibTeX read it so). */
export function cslMarkupParts(rich: string): CslMarkupPart[] {
  const parts: CslMarkupPart[] = [];
  let at = 0;
  for (const match of rich.matchAll(CSL_MARKUP)) {
    if (match.index > at) parts.push({ text: rich.slice(at, match.index) });
    const tag = match[0].toLowerCase();
    const name = /^<\/?([a-z]+)/.exec(tag)![1]!;
    if (tag.startsWith('</'))
      parts.push({ close: name as Exclude<CslTag, 'nocase' | 'nodecor'> | 'span' });
    else if (name === 'span')
      parts.push({
        open: tag.includes('nocase') ? 'nocase' : tag.includes('nodecor') ? 'nodecor' : 'sc',
      });
    else parts.push({ open: name as CslTag });
    at = match.index + match[0].length;
  }
  if (at < rich.length) parts.push({ text: rich.slice(at) });
  return parts;
}

/** A field that may keep its rich text: the title, or any text variable. */
export type MarkupField = 'title' | TextField;

/** The plain text of rich text, as a record's field holds it (NFC, white space collapsed). */
function plainOf(rich: string): string {
  return cslPlainText(rich).normalize('NFC').replace(/\s+/g, ' ').trim();
}

/**
 * The rich text to keep beside a field's plain text: `raw` when it holds CSL's tags, no other tag,
 * and reads as `plain` without them; else none (nothing to keep, or not CSL's markup).
 */
export function markupToKeep(raw: unknown, plain: string | undefined): string | undefined {
  if (typeof raw !== 'string' || !plain) return undefined;
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === plain || !HAS_CSL_MARKUP.test(text)) return undefined;
  if (/<[a-z/!]/i.test(cslPlainText(text))) return undefined;
  return plainOf(text) === plain ? text : undefined;
}

/**
 * The whole title to keep beside a resource's title when the title was cut to TITLE_MAX: the rich
 * text when it reads as the whole title, else the whole title's plain text; none when nothing was cut.
 */
export function wholeTitleToKeep(
  raw: unknown,
  whole: string | undefined,
  kept: string | undefined,
) {
  if (!whole || !kept || whole === kept) return markupToKeep(raw, kept);
  return markupToKeep(raw, whole) ?? whole;
}

/** Whether `title` is still the start a resource kept of the whole title `whole` (cut at TITLE_MAX). */
function isCutFrom(title: string, whole: string): boolean {
  return (
    title.length >= TITLE_MAX - 1 &&
    whole.length > title.length &&
    whole.startsWith(title.trimEnd())
  );
}

/**
 * The record's rich text by CSL variable, for the fields whose plain text is still what it was
 * (`title` is the resource's own title, or its start when the title was longer than TITLE_MAX).
 */
export function currentMarkup(record: BibRecord, title: string): Record<string, string> {
  const rich: Record<string, string> = {};
  for (const [field, text] of Object.entries(record.markup ?? {})) {
    const plain = field === 'title' ? title : record[field as TextField];
    const variable = field === 'title' ? 'title' : TEXT_VARIABLES[field as TextField];
    if (!variable || typeof text !== 'string' || !plain) continue;
    const current = plainOf(text);
    if (current === plain || (field === 'title' && isCutFrom(plain, current)))
      rich[variable] = text;
  }
  return rich;
}
