/**
 * The two dialects a summary is given in (docs/design.md, Dialects) and how a chosen sentence is
 * shown in them. The summarizer makes one object holding both; presenters.ts picks one per request.
 */

/** Variant A (extractive fields; docs/design.md, Dialects). A type alias, so it also passes as a plain record. */
export type SummaryVariantA = {
  /** One or two sentences. */
  tldr: string;
  /** The top sentences in their original order: up to 6 in deep mode, up to 5 in quick mode. */
  bullets: string[];
  /** Top significant terms of the text. */
  tags: string[];
  readingTimeMinutes: number;
  confidence: 'medium';
};

/** Variant B (docs/design.md, Dialects). */
export type SummaryVariantB = {
  summary: {
    abstract: string;
    keyPoints: string[];
    conclusion: string;
    keywords: string[];
  };
  metadata: {
    wordCount: number;
    /** Minutes to read the source text. */
    readingTime: number;
    /** Share (0..1) of the text's significant term mass that the chosen sentences cover. */
    confidence: number;
  };
};

/** Both dialects in one object; a presenter picks the one a request asked for. */
export type Summary = SummaryVariantA & SummaryVariantB;

export function toSummaryVariantA(summary: Summary): SummaryVariantA {
  const { tldr, bullets, tags, readingTimeMinutes, confidence } = summary;
  return { tldr, bullets, tags, readingTimeMinutes, confidence };
}

export function toSummaryVariantB(summary: Summary): SummaryVariantB {
  return { summary: summary.summary, metadata: summary.metadata };
}

/** A sentence as shown: a footnote marker glued to its final full stop ("… benchmark.1") removed. */
export function presentSentence(text: string): string {
  return text.replace(/([\p{Ll})])\.\d{1,2}(?:,\d{1,2})*$/u, '$1.');
}

export function joinSentences(sentences: string[]): string {
  return sentences.join(' ');
}
