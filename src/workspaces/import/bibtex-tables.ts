/**
 * What citation-js's BibTeX reader is told beyond its own tables, once, where the parser is loaded:
 * the entry types Mendeley writes (`@web_page`, `@book_section`…, which it would read as `document`)
 * and the LaTeX commands real files use that it leaves as written (`{\aa}`, `$\pm$`, `$^\circ$`).
 * The tables are the plugin's own (its `constants` and `types`), extended, not replaced.
 */
import { plugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';

interface BibtexConfig {
  types: { biblatex: { source: Record<string, string> } };
  constants: { commands: Record<string, string>; mathCommands: Record<string, string> };
}

/**
 * Mendeley Desktop's entry types (its own item types, written as they are named) as CSL types, read
 * as Zotero's BibTeX import reads them.
 */
const MENDELEY_TYPES: Record<string, string> = {
  web_page: 'webpage',
  book_section: 'chapter',
  magazine_article: 'article-magazine',
  newspaper_article: 'article-newspaper',
  journal_article: 'article-journal',
  conference_proceedings: 'paper-conference',
  encyclopedia_article: 'entry-encyclopedia',
  computer_program: 'software',
  working_paper: 'report',
  television_broadcast: 'broadcast',
  film: 'motion_picture',
  generic: 'document',
  hearing: 'hearing',
  statute: 'legislation',
  bill: 'bill',
  case: 'legal_case',
  report: 'report',
  thesis: 'thesis',
};

/** Text-mode commands citation-js does not know (its table has `\o`, `\ss`, `\i`, not `\aa`). */
const COMMANDS: Record<string, string> = {
  aa: 'å',
  AA: 'Å',
  textdegree: '°',
  textmu: 'µ',
  textpm: '±',
  textminus: '−',
  textellipsis: '…',
  ldots: '…',
  dots: '…',
};

/** Math-mode commands it does not know (its table has the Greek letters only). */
const MATH_COMMANDS: Record<string, string> = {
  pm: '±',
  mp: '∓',
  circ: '∘',
  degree: '°',
  times: '×',
  cdot: '·',
  div: '÷',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  ne: '≠',
  neq: '≠',
  approx: '≈',
  sim: '∼',
  simeq: '≃',
  equiv: '≡',
  propto: '∝',
  infty: '∞',
  partial: '∂',
  nabla: '∇',
  sum: '∑',
  prod: '∏',
  int: '∫',
  sqrt: '√',
  ell: 'ℓ',
  hbar: 'ℏ',
  to: '→',
  rightarrow: '→',
  leftarrow: '←',
  leftrightarrow: '↔',
  Rightarrow: '⇒',
  Leftrightarrow: '⇔',
  mapsto: '↦',
  in: '∈',
  notin: '∉',
  subset: '⊂',
  subseteq: '⊆',
  cup: '∪',
  cap: '∩',
  emptyset: '∅',
  forall: '∀',
  exists: '∃',
  neg: '¬',
  wedge: '∧',
  vee: '∨',
  langle: '⟨',
  rangle: '⟩',
  ldots: '…',
  cdots: '⋯',
  prime: '′',
  star: '⋆',
  ast: '∗',
  dagger: '†',
};

const config = plugins.config.get('@bibtex') as BibtexConfig;
for (const [type, csl] of Object.entries(MENDELEY_TYPES))
  config.types.biblatex.source[type] ??= csl;
for (const [command, text] of Object.entries(COMMANDS)) config.constants.commands[command] ??= text;
for (const [command, text] of Object.entries(MATH_COMMANDS))
  config.constants.mathCommands[command] ??= text;
