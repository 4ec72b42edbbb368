import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { BarList, RangePicker, TimeSeries, type Range } from '../components/charts';
import { fmtDateTime, fmtNumber } from '../components/format';
import { ResourceTable } from '../components/resource';
import { useExport } from '../components/download';
import { ErrorBanner, isForbidden, Loading, PageHeader, Stat, Unavailable } from '../components/ui';

export default function EventsPage() {
  const [days, setDays] = useState<Range>(30);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDeferredValue(search);
  const overview = useQuery({ queryKey: ['events-overview', days], queryFn: () => unwrap(api.GET('/api/analytics/events/overview', { params: { query: { days } } })) });
  const timeline = useQuery({ queryKey: ['events-timeline', days], queryFn: () => unwrap(api.GET('/api/analytics/events/timeline', { params: { query: { days } } })) });
  const names = useQuery({ queryKey: ['events-names'], queryFn: () => unwrap(api.GET('/api/analytics/events/names')) });
  const list = useQuery({
    queryKey: ['events-list', days, q, page],
    queryFn: () => unwrap(api.GET('/api/analytics/events/list', { params: { query: { days, page, limit: 50, ...(q ? { search: q } : {}) } } })),
  });
  const exported = useExport();
  const exportCsv = () =>
    exported.run(`events-${days}d.csv`, async () => {
      const csv = await unwrap(api.GET('/api/analytics/events/export', { params: { query: { days, format: 'csv', limit: 100000 } }, parseAs: 'blob' }));
      return csv as unknown as Blob;
    });
  if (isForbidden(overview.error)) return <Unavailable title="Event analytics">{overview.error.message}</Unavailable>;
  const o = overview.data;
  return (
    <section className="page">
      <PageHeader title="Event analytics">
        <RangePicker value={days} onChange={(d) => (setDays(d), setPage(1))} />
        <button type="button" className="button" onClick={exportCsv}>
          Export CSV
        </button>
      </PageHeader>
      <ErrorBanner error={overview.error ?? exported.error} />
      {overview.isPending ? (
        <Loading />
      ) : o ? (
        <div className="grid-4">
          <Stat label="Events" value={fmtNumber(o.totalEvents)} />
          <Stat label="Event names" value={fmtNumber(o.uniqueEventNames)} />
          <Stat label="Today" value={fmtNumber(o.eventsToday)} />
          <Stat label="Revenue" value={fmtNumber(o.totalRevenue)} />
        </div>
      ) : null}
      <div className="card">
        <h3>Events by day (UTC)</h3>
        {timeline.data ? <TimeSeries points={timeline.data.timeline.map((t) => ({ date: t.date, value: t.count }))} label="Events" /> : <Loading />}
      </div>
      <div className="grid-2">
        <div className="card">
          <h3>Top events</h3>
          <BarList rows={(o?.topEvents ?? []).map((t) => ({ label: t.eventName, value: t.count }))} empty="No events in this range" />
        </div>
        <div className="card">
          <h3>All event names</h3>
          <BarList rows={(names.data?.eventNames ?? []).map((n) => ({ label: n.name, value: n.count }))} empty="No events yet: send some with the SDK" />
        </div>
      </div>
      <div className="page-header">
        <h2>Events</h2>
        <label>
          <span className="visually-hidden">Search event names</span>
          <input type="search" placeholder="Search event names" value={search} onChange={(e) => (setSearch(e.target.value), setPage(1))} />
        </label>
      </div>
      <ErrorBanner error={list.error} />
      <ResourceTable
        loading={list.isPending}
        items={list.data?.events}
        empty={{ title: 'No events match', body: 'Try another search or a longer range.' }}
        head={['Event', 'When', 'Link', 'Data']}
        label="Events"
      >
        {(ev) => (
          <tr key={ev.id}>
            <td>
              <code>{ev.eventName}</code>
            </td>
            <td>{fmtDateTime(ev.eventTimestamp)}</td>
            <td>{ev.linkShortCode ? `/${ev.linkShortCode}` : '—'}</td>
            <td className="truncate">
              <code>{ev.eventData ? JSON.stringify(ev.eventData).slice(0, 120) : ''}</code>
            </td>
          </tr>
        )}
      </ResourceTable>
      {list.data && list.data.events.length > 0 && (
        <div className="page-actions">
          <button type="button" className="button small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="muted">
            Page {page} of {Math.max(1, Math.ceil(list.data.total / list.data.limit))}
          </span>
          <button type="button" className="button small" disabled={page * list.data.limit >= list.data.total} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      )}
    </section>
  );
}
