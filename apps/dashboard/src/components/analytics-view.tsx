import { useEffect, useState } from 'react';
import { authHeaders } from '../api/client';
import { fmtNumber, fmtPercent, fmtDateTime } from './format';
import { saveBlob } from './download';

/** The filters a row click sets (GET /api/analytics and link analytics take the same names). */
export const FILTER_LABELS = {
  linkId: 'Link',
  country: 'Country',
  city: 'City',
  device: 'Device',
  os: 'OS',
  browser: 'Browser',
  referrerHost: 'Referrer',
  utmSource: 'UTM source',
  utmMedium: 'UTM medium',
  utmCampaign: 'UTM campaign',
} as const;
export type FilterKey = keyof typeof FILTER_LABELS;
/** A set filter: its value for the query, and what the chip shows. */
export type Filters = Partial<Record<FilterKey, { value: string; label: string }>>;

/** Filters live in the URL (`?country=DE&country.label=Germany`), so a filtered view can be shared and reloaded. */
export function readFilters(params: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const k of Object.keys(FILTER_LABELS) as FilterKey[]) {
    const value = params.get(k);
    if (value) filters[k] = { value, label: params.get(`${k}.label`) ?? value };
  }
  return filters;
}

/** Setting and removing a filter in the URL's search parameters. */
export function useUrlFilters(params: URLSearchParams, setParams: (next: URLSearchParams, opts: { replace: boolean }) => void) {
  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    setParams(next, { replace: true });
  };
  return {
    update,
    setFilter: (key: FilterKey, value: string, label: string) =>
      update((next) => {
        next.set(key, value);
        next.set(`${key}.label`, label);
      }),
    removeFilter: (key: FilterKey) =>
      update((next) => {
        next.delete(key);
        next.delete(`${key}.label`);
      }),
  };
}

/** The filters as query parameters of the generated client (a device from the URL that is not one of the three is the API's 400). */
export function filterQuery(filters: Filters): Partial<Record<Exclude<FilterKey, 'linkId' | 'device'>, string>> & {
  linkId?: string[];
  device?: 'mobile' | 'desktop' | 'tablet';
} {
  const q: Record<string, string | string[]> = {};
  for (const [k, f] of Object.entries(filters)) if (f) q[k] = k === 'linkId' ? [f.value] : f.value;
  return q;
}

/** The set filters as removable chips. */
export function FilterChips({ filters, onRemove }: { filters: Filters; onRemove: (key: FilterKey) => void }) {
  const set = Object.entries(filters).filter(([, f]) => f) as Array<[FilterKey, { value: string; label: string }]>;
  if (!set.length) return <p className="hint">Click any row below to filter by it.</p>;
  return (
    <ul className="chips" aria-label="Filters">
      {set.map(([key, f]) => (
        <li key={key} className="chip" data-testid={`chip-${key}`}>
          <span>
            {FILTER_LABELS[key]}: <strong>{f.label}</strong>
          </span>
          <button type="button" aria-label={`Remove the ${FILTER_LABELS[key]} filter`} onClick={() => onRemove(key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A ranked list whose rows set a filter when clicked (the row of the current filter is marked). */
export function FilterList({
  title,
  rows,
  filterKey,
  filters,
  onFilter,
}: {
  title: string;
  rows: Array<{ value: string; label: string; clicks: number }>;
  filterKey: FilterKey;
  filters: Filters;
  onFilter: (key: FilterKey, value: string, label: string) => void;
}) {
  const max = Math.max(...rows.map((r) => r.clicks), 1);
  const total = rows.reduce((s, r) => s + r.clicks, 0);
  return (
    <section className="card" aria-label={title} data-testid={`list-${filterKey}`}>
      <h3>{title}</h3>
      {!rows.length ? (
        <p className="muted">No clicks</p>
      ) : (
        <ul className="bars">
          {rows.slice(0, 10).map((r) => (
            <li key={r.value}>
              <span className="bar" style={{ width: `${(r.clicks / max) * 100}%` }} aria-hidden="true" />
              <button
                type="button"
                className="row-filter truncate"
                aria-pressed={filters[filterKey]?.value === r.value}
                title={`Filter by ${FILTER_LABELS[filterKey]}: ${r.label}`}
                onClick={() => onFilter(filterKey, r.value, r.label)}
              >
                {r.label}
              </button>
              <span className="n" title={fmtPercent(r.clicks / total)}>
                {fmtNumber(r.clicks)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The change from the previous window of the same length, as "+12%" (null when there was nothing before). */
export function Change({ now, before }: { now: number; before: number }) {
  if (!before) return <span className="muted">{now ? 'new' : 'no change'}</span>;
  const change = (now - before) / before;
  const cls = change > 0 ? 'delta-up' : change < 0 ? 'delta-down' : 'muted';
  return (
    <span className={cls} title={`Previous period: ${fmtNumber(before)}`}>
      {change > 0 ? '+' : ''}
      {fmtPercent(change)} vs previous period
    </span>
  );
}

/** The rows of a summary as CSV (section, value, clicks), downloaded by the browser. */
export function downloadCsv(filename: string, sections: Array<{ name: string; rows: Array<{ label: string; clicks: number }> }>) {
  const cell = (v: string) => {
    const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = ['section,value,clicks'];
  for (const s of sections) for (const r of s.rows) lines.push([cell(s.name), cell(r.label), String(r.clicks)].join(','));
  saveBlob(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' }), filename);
}

export interface LiveClick {
  id: string;
  linkId: string;
  shortCode: string;
  clickedAt: string;
  countryCode: string | null;
  city: string | null;
  device: string;
  os: string | null;
  browser: string | null;
  referrerHost: string | null;
}

/**
 * The latest clicks from GET /api/analytics/live (Server-Sent Events read with fetch, which can
 * send the Authorization header EventSource cannot). Reconnects after a drop; stops on unmount.
 */
export function useLiveClicks(enabled: boolean, linkId?: string, keep = 20): { clicks: LiveClick[]; state: 'off' | 'connecting' | 'live' | 'error' } {
  const [clicks, setClicks] = useState<LiveClick[]>([]);
  const [state, setState] = useState<'off' | 'connecting' | 'live' | 'error'>('off');
  useEffect(() => {
    if (!enabled) {
      setState('off');
      return;
    }
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      setState('connecting');
      try {
        const res = await fetch(`/api/analytics/live${linkId ? `?linkId=${encodeURIComponent(linkId)}` : ''}`, {
          headers: { ...(await authHeaders()), accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (!res.ok || !res.body) throw new Error(String(res.status));
        setState('live');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (data && /^event: click$/m.test(block)) {
              const click = JSON.parse(data) as LiveClick;
              setClicks((prev) => [click, ...prev].slice(0, keep));
            }
          }
        }
        throw new Error('closed');
      } catch {
        if (abort.signal.aborted) return;
        setState('error');
        retry = setTimeout(() => void connect(), 5000);
      }
    };
    void connect();
    return () => {
      abort.abort();
      if (retry) clearTimeout(retry);
    };
  }, [enabled, linkId, keep]);
  return { clicks, state };
}

/** The live panel: clicks as they happen. */
export function LivePanel({ linkId }: { linkId?: string }) {
  const [on, setOn] = useState(true);
  const { clicks, state } = useLiveClicks(on, linkId);
  return (
    <section className="card" aria-label="Live clicks" data-testid="live-panel">
      <div className="panel-head">
        <h3>
          Live <span className={`live-dot ${state}`} aria-label={state} />
        </h3>
        <button type="button" className="button" onClick={() => setOn((v) => !v)}>
          {on ? 'Pause' : 'Resume'}
        </button>
      </div>
      {!clicks.length ? (
        <p className="muted">{state === 'live' ? 'Waiting for the next click…' : state === 'error' ? 'Reconnecting…' : 'Paused'}</p>
      ) : (
        <ul className="live-list">
          {clicks.map((c) => (
            <li key={c.id}>
              <span className="mono">/{c.shortCode}</span>
              <span className="truncate">{[c.city, c.countryCode].filter(Boolean).join(', ') || 'Unknown place'}</span>
              <span className="muted truncate">{[c.device, c.browser, c.referrerHost].filter(Boolean).join(' · ')}</span>
              <time dateTime={c.clickedAt}>{fmtDateTime(c.clickedAt)}</time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
