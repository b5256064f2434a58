/**
 * Zoom as pdf.js's viewer offers it: fit the width of the column, fit the whole page in the window, or a
 * scale of the page's own size (100 % is the page at 96 CSS pixels an inch); zooming in and out steps
 * through pdf.js's own preset scales, and Ctrl+wheel or a pinch sets any scale between the first and last.
 */
export type Zoom = { kind: 'fit-width' } | { kind: 'fit-page' } | { kind: 'scale'; scale: number };

export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;

export const clampScale = (scale: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));

/** The page's width on screen, in CSS pixels, for a zoom. */
export function pageWidthFor(
  zoom: Zoom,
  {
    column,
    viewHeight,
    naturalWidth,
    aspect,
  }: { column: number; viewHeight: number; naturalWidth: number; aspect: number },
): number {
  switch (zoom.kind) {
    case 'fit-width':
      return column;
    case 'fit-page':
      return Math.max(1, Math.min(column, viewHeight * aspect));
    case 'scale':
      return naturalWidth * zoom.scale;
  }
}

/** The next preset scale above (`direction` 1) or below (-1) the scale shown now. */
export function stepFrom(scale: number, direction: 1 | -1): number {
  const next =
    direction > 0
      ? ZOOM_STEPS.find((step) => step > scale * 1.001)
      : [...ZOOM_STEPS].reverse().find((step) => step < scale * 0.999);
  return next ?? (direction > 0 ? MAX_SCALE : MIN_SCALE);
}

export const percentOf = (scale: number) => `${Math.round(scale * 100)}%`;
