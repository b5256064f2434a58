/** Highlights are character ranges of a resource's abstract, stored as `highlights.ranges` of an annotation. */
import type { Annotation, HighlightRange } from './hooks/use-workspaces';

export function rangesOf(annotation: Annotation): HighlightRange[] {
  const ranges = (annotation.highlights as { ranges?: unknown }).ranges;
  if (!Array.isArray(ranges)) return [];
  return ranges.filter(
    (range): range is HighlightRange =>
      typeof range === 'object' &&
      range !== null &&
      Number.isInteger((range as HighlightRange).start) &&
      Number.isInteger((range as HighlightRange).end),
  );
}

/** The selection inside `container` as offsets into its text, or null when nothing there is selected. */
export function selectionWithin(
  container: HTMLElement,
  selection: Selection | null,
): HighlightRange | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  if (!container.contains(range.startContainer) || !container.contains(range.endContainer))
    return null;
  const before = document.createRange();
  before.selectNodeContents(container);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  const text = range.toString();
  if (text.trim() === '') return null;
  return { start, end: start + text.length, text };
}

/** The text cut into plain and highlighted pieces (overlapping ranges merged). */
export function segments(
  text: string,
  ranges: HighlightRange[],
): Array<{ text: string; marked: boolean }> {
  const sorted = ranges
    .map((range) => ({
      start: Math.max(0, Math.min(range.start, text.length)),
      end: Math.max(0, Math.min(range.end, text.length)),
    }))
    .filter((range) => range.end > range.start)
    .sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const pieces: Array<{ text: string; marked: boolean }> = [];
  let at = 0;
  for (const range of merged) {
    if (range.start > at) pieces.push({ text: text.slice(at, range.start), marked: false });
    pieces.push({ text: text.slice(range.start, range.end), marked: true });
    at = range.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false });
  return pieces;
}
