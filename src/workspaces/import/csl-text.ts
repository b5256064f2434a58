/**
 * CSL's rich text as plain text. A CSL title may hold the few tags CSL-JSON knows (`<i>`, `<b>`,
 * `<sup>`, `<sub>`, small caps and `nocase` spans, which the BibTeX reader writes for `\textit{}`,
 * `$^2$`, …) and is otherwise text: `n<m holds` is a title, not a tag. An HTML sanitiser reads
 * `<m holds` as an unclosed tag and drops the rest of the title; this removes CSL's tags only.
 */
const CSL_MARKUP =
  /<\/?(?:i|b|sup|sub)>|<span\s+(?:style="font-variant:\s*small-caps;?"|class="nocase")\s*>|<\/span>/gi;

export function cslPlainText(text: string): string {
  return text.replace(CSL_MARKUP, '');
}
