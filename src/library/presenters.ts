/** Shapes library search's rows: each hit with its workspace, rank and the snippets saying where it matched. */
import type { z } from 'zod';
import type { LibraryHitSchema, SNIPPET_PLACES } from './schemas.js';
import { HIT_END, HIT_START, type LibraryHitRow } from './store.js';

type Snippet = z.infer<typeof LibraryHitSchema>['snippets'][number];
type Place = (typeof SNIPPET_PLACES)[number];

/**
 * ts_headline's text with its marks turned into offsets; null when it marks nothing (a field
 * ts_headline was asked about that holds none of the words, e.g. the abstract of a title hit).
 */
function readMarkedText(marked: string | null): Pick<Snippet, 'text' | 'highlights'> | null {
  if (!marked?.includes(HIT_START)) return null;
  const highlights: Snippet['highlights'] = [];
  let text = '';
  let start = -1;
  for (const char of marked) {
    if (char === HIT_START) start = text.length;
    else if (char === HIT_END) {
      if (start >= 0 && text.length > start) highlights.push({ start, end: text.length });
      start = -1;
    } else text += char;
  }
  return highlights.length ? { text, highlights } : null;
}

function snippet(
  place: Place,
  marked: string | null,
  extra: Pick<Snippet, 'page' | 'annotationId'> = {},
): Snippet[] {
  const read = readMarkedText(marked);
  return read ? [{ in: place, ...extra, ...read }] : [];
}

/** Where a resource matched, from the weightiest place down: title, authors, tags, abstract, notes, annotations, PDF pages. */
function snippetsOf(row: LibraryHitRow): Snippet[] {
  return [
    ...snippet('title', row.title_h),
    ...snippet('authors', row.authors_h),
    ...(row.tags_h ?? []).flatMap((tag) => snippet('tag', tag)),
    ...snippet('abstract', row.abstract_h),
    ...snippet('notes', row.notes_h),
    ...(row.annotations_h ?? []).flatMap((annotation) =>
      snippet('annotation', annotation.text, { annotationId: annotation.id }),
    ),
    ...(row.pages_h ?? []).flatMap((page) => snippet('pdf', page.text, { page: page.page })),
  ];
}

export function presentLibraryHit(row: LibraryHitRow): z.infer<typeof LibraryHitSchema> {
  return {
    id: row.id,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    title: row.title,
    citationKey: row.citation_key ?? '',
    authors: row.authors,
    tags: row.tags,
    type: row.type,
    url: row.url,
    publishedDate: row.published,
    addedAt: row.added_at,
    rank: Math.round(Number(row.rank) * 1_000_000) / 1_000_000,
    snippets: snippetsOf(row),
  };
}
