/**
 * The colours an annotation may have: a small fixed palette, as Zotero's (its eight highlight colours),
 * so that the sidebar can filter by colour and the share page can show them. Rows written before colours
 * are yellow. The database checks the same list (src/platform/db/schema/annotations.ts).
 */
import { z } from 'zod';

export const ANNOTATION_COLORS = [
  'yellow',
  'red',
  'green',
  'blue',
  'purple',
  'magenta',
  'orange',
  'gray',
] as const;
export type AnnotationColor = (typeof ANNOTATION_COLORS)[number];

export const AnnotationColorSchema = z
  .enum(ANNOTATION_COLORS)
  .describe("The highlight's colour, one of a fixed palette (Zotero's eight)")
  .meta({ id: 'AnnotationColor' });

/** A stored colour as the palette's (the database allows no other; a row read otherwise is yellow). */
export function annotationColorOf(stored: string): AnnotationColor {
  return (ANNOTATION_COLORS as readonly string[]).includes(stored)
    ? (stored as AnnotationColor)
    : 'yellow';
}
