/** Citation keys as a document cites them: LaTeX's `\cite{a,b}` and `\citep{a,b}`, pandoc's `[@a; @b]`. */
export const CITE_FORMS = ['cite', 'citep', 'pandoc'] as const;
export type CiteForm = (typeof CITE_FORMS)[number];

export const CITE_FORM_LABELS: Record<CiteForm, string> = {
  cite: 'Copy \\cite{…}',
  citep: 'Copy \\citep{…}',
  pandoc: 'Copy [@…]',
};

export function citeCommand(form: CiteForm, keys: readonly string[]): string {
  if (form === 'pandoc') return `[${keys.map((key) => `@${key}`).join('; ')}]`;
  return `\\${form}{${keys.join(',')}}`;
}
