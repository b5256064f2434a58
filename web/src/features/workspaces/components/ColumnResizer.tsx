/**
 * The handle on a column header's right edge that resizes it: dragged with a pointer, or focused and
 * moved with the arrow keys (8 px a press, 32 px with Shift; Home puts the default back). A separator
 * with its value, as WAI-ARIA's window splitter is, so a screen reader says the width.
 */
import { useRef } from 'react';
import { DEFAULT_COLUMNS, MAX_WIDTH, MIN_WIDTH, type SizedColumnId } from '../library-columns';

const STEP = 8;
const BIG_STEP = 32;

export function ColumnResizer({
  column,
  label,
  width,
  onResize,
}: {
  column: SizedColumnId;
  label: string;
  width: number;
  onResize: (width: number) => void;
}) {
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Width of ${label}`}
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      aria-valuetext={`${width} pixels`}
      tabIndex={0}
      className="column-resizer"
      onPointerDown={(event) => {
        event.preventDefault();
        event.currentTarget.setPointerCapture(event.pointerId);
        drag.current = { startX: event.clientX, startWidth: width };
      }}
      onPointerMove={(event) => {
        if (drag.current) onResize(drag.current.startWidth + event.clientX - drag.current.startX);
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
      onPointerCancel={() => {
        drag.current = null;
      }}
      onKeyDown={(event) => {
        const step = event.shiftKey ? BIG_STEP : STEP;
        const next =
          event.key === 'ArrowRight'
            ? width + step
            : event.key === 'ArrowLeft'
              ? width - step
              : event.key === 'Home'
                ? DEFAULT_COLUMNS.widths[column]
                : null;
        if (next === null) return;
        event.preventDefault();
        onResize(next);
      }}
    />
  );
}
