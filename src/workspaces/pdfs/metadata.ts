/**
 * A record from a PDF alone, as reference managers' "retrieve metadata" does: a DOI or arXiv id printed
 * on its first pages, looked up through search; failing that, the PDF's own information dictionary
 * (Title, Author) when it looks like a real title, and last the first page's title line.
 */
import { normaliseArxivId, normaliseDoi } from '../resources/work-key.js';

/** Identifiers are looked for on this many pages from the start (title page, and a cover page before it). */
export const IDENTIFIER_PAGES = 2;

const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"<>]+)/g;
const ARXIV_IN_TEXT =
  /\barXiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?)/gi;

/** The first DOI, else the first arXiv id, printed in `text`, as an identifier search resolves. */
export function findIdentifier(text: string): { kind: 'doi' | 'arxiv'; id: string } | null {
  for (const match of text.matchAll(DOI_IN_TEXT)) {
    // A DOI at the end of a sentence or in brackets carries the punctuation after it.
    const doi = normaliseDoi(match[1]!.replace(/[.,;:)\]}>'"]+$/, ''));
    if (doi) return { kind: 'doi', id: doi };
  }
  for (const match of text.matchAll(ARXIV_IN_TEXT)) {
    const arxivId = normaliseArxivId(match[1]!);
    if (arxivId) return { kind: 'arxiv', id: `arxiv:${arxivId}` };
  }
  return null;
}

/**
 * Whether an information-dictionary title is a title: many producers write the file name, a job
 * number or "Microsoft Word - draft.docx" there.
 */
export function isPlausibleTitle(title: string | undefined): title is string {
  if (!title) return false;
  const letters = title.match(/\p{L}/gu)?.length ?? 0;
  if (letters < 8 || letters < title.length / 2) return false;
  if (
    /^(microsoft word|untitled|document\d*\b)|\.(docx?|tex|dvi|pdf|indd|qxd)$/i.test(title.trim())
  )
    return false;
  return title.trim().split(/\s+/).length >= 2;
}

/** The first page's title: its first line of a few words that is mostly letters (not a running header's number or date). */
export function firstPageTitle(page: string): string | null {
  for (const raw of page.split('\n').slice(0, 15)) {
    const line = raw.replace(/\s+/g, ' ').trim();
    const words = line.split(' ').length;
    if (words < 3 || line.length > 250) continue;
    if (!isPlausibleTitle(line)) continue;
    if (
      /^(vol\.|volume|proceedings|journal|arxiv:|doi|https?:|©|copyright|research article|original article)/i.test(
        line,
      )
    )
      continue;
    return line;
  }
  return null;
}

/** Authors from an information dictionary's `Author`: "A ; B", "A, B and C" or one name. */
export function splitAuthors(author: string | undefined): string[] {
  if (!author) return [];
  const parts = author.includes(';') ? author.split(';') : author.split(/,\s*|\s+and\s+/);
  // "et al." (braced or not) stands for the names left out: dropped, the name before it kept.
  return parts
    .map((part) => part.replace(/[{(]?\bet al\.?[})]?/gi, '').trim())
    .filter((part) => /\p{L}{2}/u.test(part));
}
