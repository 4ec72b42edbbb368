import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fmtCompact, fmtNumber, fmtPercent } from './format';

const shortDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * A colour custom property as the canvas takes it: the browser resolves it (light-dark() for the
 * page's colour scheme included) as the colour of a probe element, `rgb(r, g, b)`.
 */
function cssColor(name: string, alpha = 1): string {
  const probe = document.createElement('i');
  probe.style.color = `var(${name})`;
  document.body.append(probe);
  const [r, g, b] = getComputedStyle(probe).color.match(/[\d.]+/g) ?? [];
  probe.remove();
  return b === undefined ? '#888' : `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** Clicks per UTC day as an area chart (uPlot: ~50 KB, canvas, fast on a slow laptop). */
export function TimeSeries({ points, label }: { points: Array<{ date: string; value: number }>; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const xs = points.map((p) => Date.parse(`${p.date}T00:00:00Z`) / 1000);
    const ys = points.map((p) => p.value);
    const line = cssColor('--chart-1');
    const grid = cssColor('--chart-grid');
    const text = cssColor('--muted');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        cursor: { drag: { x: false, y: false } },
        legend: { show: false },
        scales: { y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
        axes: [
          { ...axis, space: 70, values: (_u, ticks) => ticks.map((t) => shortDay.format(new Date(t * 1000))) },
          { ...axis, size: 48, values: (_u, ticks) => ticks.map((t) => fmtCompact(t)) },
        ],
        series: [{}, { label, stroke: line, width: 2, fill: cssColor('--chart-1', 0.13), points: { show: points.length <= 31 } }],
      },
      [xs, ys],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, label]);
  const total = points.reduce((s, p) => s + p.value, 0);
  return (
    <figure className="chart-figure" style={{ margin: 0 }}>
      <div ref={ref} className="chart" role="img" aria-label={`${label}: ${fmtNumber(total)} over ${points.length} days`} />
      <figcaption className="visually-hidden">
        <table>
          <tbody>
            {points.map((p) => (
              <tr key={p.date}>
                <th>{p.date}</th>
                <td>{p.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}

/** A ranked list with proportional bars (countries, devices, referrers...). */
export function BarList({ rows, empty = 'No data yet' }: { rows: Array<{ label: string; value: number }>; empty?: string }) {
  if (!rows.length) return <p className="muted">{empty}</p>;
  const max = Math.max(...rows.map((r) => r.value), 1);
  const total = rows.reduce((s, r) => s + r.value, 0);
  return (
    <ul className="bars">
      {rows.slice(0, 10).map((r) => (
        <li key={r.label}>
          <span className="bar" style={{ width: `${(r.value / max) * 100}%` }} aria-hidden="true" />
          <span className="truncate">{r.label}</span>
          <span className="n" title={fmtPercent(r.value / total)}>
            {fmtNumber(r.value)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export const RANGES = [7, 30, 90, 365] as const;
export type Range = (typeof RANGES)[number];

/** One time-range control for every chart of a page. */
export function RangePicker({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Time range">
      {RANGES.map((r) => (
        <button key={r} type="button" aria-pressed={value === r} onClick={() => onChange(r)}>
          {r === 365 ? '1 year' : `${r} days`}
        </button>
      ))}
    </div>
  );
}
