/**
 * What every view of annotations shares: the palette of highlight colours (the API's `AnnotationColor`,
 * Zotero's eight) with their names and swatches, and where a PDF annotation sits (its page, or pages when
 * it runs past a page break), read from `highlights.pdf`.
 */
import type { components } from '../api/schema';

export type AnnotationColor = components['schemas']['AnnotationColor'];

/** The palette in the API's order, each with its name and the swatch Zotero draws it with. */
export const ANNOTATION_COLORS: ReadonlyArray<{ id: AnnotationColor; name: string; hex: string }> =
  [
    { id: 'yellow', name: 'Yellow', hex: '#ffd400' },
    { id: 'red', name: 'Red', hex: '#ff6666' },
    { id: 'green', name: 'Green', hex: '#5fb236' },
    { id: 'blue', name: 'Blue', hex: '#2ea8e5' },
    { id: 'purple', name: 'Purple', hex: '#a28ae5' },
    { id: 'magenta', name: 'Magenta', hex: '#e56eee' },
    { id: 'orange', name: 'Orange', hex: '#f19837' },
    { id: 'gray', name: 'Gray', hex: '#aaaaaa' },
  ];

export function colorName(color: AnnotationColor): string {
  return ANNOTATION_COLORS.find((entry) => entry.id === color)?.name ?? color;
}

/** Where a PDF annotation sits: the page it starts on, the page it ends on, and its quote; null for others. */
export function pdfPlaceOf(highlights: {
  pdf?: { page: number; quote: string; rects: Array<{ page?: number }> };
}): { page: number; lastPage: number; quote: string } | null {
  const pdf = highlights.pdf;
  if (!pdf || !Number.isInteger(pdf.page) || !Array.isArray(pdf.rects)) return null;
  const lastPage = Math.max(pdf.page, ...pdf.rects.map((rect) => rect.page ?? pdf.page));
  return { page: pdf.page, lastPage, quote: pdf.quote };
}

/** "page 3", or "pages 3–4" for a quote across a page break. */
export function pagesLabel(place: { page: number; lastPage: number }): string {
  return place.lastPage > place.page
    ? `pages ${place.page}–${place.lastPage}`
    : `page ${place.page}`;
}
