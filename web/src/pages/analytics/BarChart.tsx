/**
 * A horizontal bar chart (recharts), loaded on its own after the numbers are on the page. The
 * figure is described by its caption; the same numbers are in the table or list beside it, so the
 * drawing itself is hidden from screen readers and kept out of the tab order (no accessibility layer:
 * its keyboard tooltips would repeat the table).
 */
import { Bar, BarChart as Chart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Bar as Datum } from './AnalyticsPage';

export default function BarChart({ title, bars, unit }: { title: string; bars: Datum[]; unit: string }) {
  const height = Math.max(120, bars.length * 34 + 40);
  return (
    <figure className="chart">
      <div aria-hidden="true" style={{ width: '100%', height }}>
        <ResponsiveContainer width="100%" height="100%">
          <Chart data={bars} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }} accessibilityLayer={false}>
            <CartesianGrid horizontal={false} stroke="var(--border)" />
            <XAxis type="number" allowDecimals={false} stroke="var(--text-muted)" tick={{ fill: 'var(--text-muted)' }} />
            <YAxis type="category" dataKey="label" width={130} stroke="var(--text-muted)" tick={{ fill: 'var(--text)' }} />
            <Tooltip cursor={{ fill: 'var(--surface-2)' }} contentStyle={{ background: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' }} formatter={(value) => [`${String(value)} ${unit}`, '']} />
            <Bar dataKey="value" fill="var(--chart-1)" radius={[0, 4, 4, 0]} isAnimationActive={false} />
          </Chart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">
        {title} (chart of the numbers above)
      </figcaption>
    </figure>
  );
}
