/**
 * A horizontal bar chart drawn as SVG: each row is the label (and its count, right-aligned) above a bar
 * whose length is its share of the largest value, so it fits a 360 px screen without an axis column.
 * Screen readers get the chart as one image named by its title and described by the numbers
 * ("graph neural: 3 searches; …"); the same numbers are in the table or list beside it.
 */
import { useId } from 'react';

interface Bar {
  label: string;
  value: number;
}

const ROW_HEIGHT = 40;
const LABEL_BASELINE = 15;
const BAR_TOP = 21;
const BAR_HEIGHT = 12;
/** Past this a label would run into its count on a narrow screen; the whole label is in the description. */
const LABEL_MAX_CHARS = 40;

function shortLabel(label: string): string {
  return label.length <= LABEL_MAX_CHARS ? label : `${label.slice(0, LABEL_MAX_CHARS - 1)}…`;
}

/** A bar's length as a percentage of the chart's width (the largest value fills it). */
function barPercent(value: number, max: number): string {
  if (max <= 0 || value <= 0) return '0%';
  return `${Math.round((value / max) * 10_000) / 100}%`;
}

/** What the bars count, in the singular and the plural ("search", "searches"). */
interface Unit {
  one: string;
  other: string;
}

export function BarChart({ title, bars, unit }: { title: string; bars: Bar[]; unit: Unit }) {
  const id = useId();
  if (bars.length === 0) return null;
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const description = bars
    .map((bar) => `${bar.label}: ${bar.value} ${bar.value === 1 ? unit.one : unit.other}`)
    .join('; ');
  return (
    <figure className="chart">
      <svg
        className="bar-chart"
        width="100%"
        height={bars.length * ROW_HEIGHT}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {bars.map((bar, index) => {
          const top = index * ROW_HEIGHT;
          return (
            <g key={bar.label}>
              <text className="bar-chart-label" x="0" y={top + LABEL_BASELINE}>
                {shortLabel(bar.label)}
              </text>
              <text className="bar-chart-value" x="100%" y={top + LABEL_BASELINE} textAnchor="end">
                {bar.value}
              </text>
              <rect
                className="bar-chart-track"
                x="0"
                y={top + BAR_TOP}
                width="100%"
                height={BAR_HEIGHT}
                rx="3"
              />
              <rect
                className="bar-chart-bar"
                x="0"
                y={top + BAR_TOP}
                width={barPercent(bar.value, max)}
                height={BAR_HEIGHT}
                rx="3"
              />
            </g>
          );
        })}
      </svg>
      <figcaption className="field-hint">
        {title} ({unit.other}, the numbers above as a chart)
      </figcaption>
    </figure>
  );
}
