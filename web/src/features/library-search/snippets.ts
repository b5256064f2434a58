/**
 * A hit's snippets as the page shows them: the text cut into plain and marked parts at the highlight
 * offsets (rendered as text in <mark> elements, never as HTML), where it was found in words, and the
 * addresses a hit opens.
 */
import type { components } from '../../api/schema';

export type LibraryHit = components['schemas']['LibraryHit'];
export type LibrarySnippet = components['schemas']['LibrarySnippet'];
export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * The text in order, each highlight a marked part. Offsets are UTF-16 code units, as String#slice
 * counts; ranges out of the text, empty, or overlapping one already taken are left out.
 */
export function snippetParts(snippet: Pick<LibrarySnippet, 'text' | 'highlights'>): SnippetPart[] {
  const { text } = snippet;
  const ranges = snippet.highlights
    .map(({ start, end }) => ({ start: Math.max(0, start), end: Math.min(text.length, end) }))
    .filter(({ start, end }) => start < end)
    .sort((a, b) => a.start - b.start);
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const { start, end } of ranges) {
    if (start < at) continue;
    if (start > at) parts.push({ text: text.slice(at, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return parts;
}

const PLACES: Record<LibrarySnippet['in'], string> = {
  title: 'Title',
  authors: 'Authors',
  abstract: 'Abstract',
  notes: 'Notes',
  tag: 'Tag',
  annotation: 'Annotation',
  pdf: 'PDF',
};

/** "Notes", "PDF, page 3", … */
export function whereFound(snippet: Pick<LibrarySnippet, 'in' | 'page'>): string {
  return snippet.in === 'pdf' && snippet.page ? `PDF, page ${snippet.page}` : PLACES[snippet.in];
}

/** The workspace library view's filter by title (`q`) takes at most this many characters (library-query.ts). */
const TITLE_FILTER_MAX = 200;

/**
 * The resource open in its workspace's library view. The view opens `resource` when it is on the list's
 * page, so the list is filtered by the resource's title too: it is then on the first page however big
 * the workspace is.
 */
export function resourceAddress(hit: Pick<LibraryHit, 'id' | 'title' | 'workspace'>): string {
  const params = new URLSearchParams({
    q: hit.title.trim().slice(0, TITLE_FILTER_MAX),
    resource: hit.id,
  });
  return `/workspaces/${encodeURIComponent(hit.workspace.id)}?${params.toString()}`;
}

/** The PDF viewer at a page. */
export function pdfPageAddress(hit: Pick<LibraryHit, 'id' | 'workspace'>, page: number): string {
  return `/workspaces/${encodeURIComponent(hit.workspace.id)}/resources/${encodeURIComponent(hit.id)}/pdf?page=${page}`;
}
