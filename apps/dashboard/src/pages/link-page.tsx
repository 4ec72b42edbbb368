import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { FilterChips, FilterList, filterQuery, type Filters, LivePanel, readFilters, useUrlFilters } from '../components/analytics-view';
import { BarList, RangePicker, TimeSeries, type Range } from '../components/charts';
import { fmtDateTime, fmtNumber, timeZone } from '../components/format';
import { fmtRevenue } from '../components/money';
import { ConfirmDialog, CopyButton, ErrorBanner, Loading, PageHeader, Stat } from '../components/ui';
import { useToast } from '../components/toasts';
import { QrPanel } from './link-qr';

export default function LinkPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const days = (Number(params.get('days')) || 30) as Range;
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: ['link', id], queryFn: () => unwrap(api.GET('/api/links/{id}', { params: { path: { id } } })) });
  // The Analytics page's filters (a row click sets one, chips remove it), without the link filter.
  const filters = useMemo(() => {
    const { linkId: _link, ...rest } = readFilters(params);
    return rest as Filters;
  }, [params]);
  const { update, setFilter, removeFilter } = useUrlFilters(params, setParams);
  const stats = useQuery({
    queryKey: ['link-analytics', id, days, filters],
    queryFn: () =>
      unwrap(api.GET('/api/analytics/links/{linkId}', { params: { path: { linkId: id }, query: { days, tz: timeZone, ...filterQuery(filters) } } })),
    placeholderData: (previous) => previous,
  });
  const clicks = useQuery({
    queryKey: ['link-clicks', id],
    queryFn: () => unwrap(api.GET('/api/analytics/clicks/{linkId}', { params: { path: { linkId: id }, query: { limit: 50 } } })),
  });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/links/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      toast('Link deleted');
      await queryClient.invalidateQueries({ queryKey: ['links'] });
      navigate('/links');
    },
  });

  if (link.isPending) return <Loading />;
  if (link.error) return <ErrorBanner error={link.error} />;
  const l = link.data;
  const s = stats.data;
  const extra = (s ?? {}) as { clicksByReferrer?: Array<{ referrer: string; clicks: number }>; clicksByVariant?: Array<{ variant: number; url: string; clicks: number }>; clicksByRule?: Array<{ rule: number | null; clicks: number }> };

  return (
    <section className="page">
      <PageHeader title={l.title || `/${l.shortCode}`}>
        <Link className="button" to={`/links/${id}/edit`}>
          Edit
        </Link>
        <button type="button" className="button danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </PageHeader>
      <div className="card copy-row">
        <a href={l.shortUrl} target="_blank" rel="noreferrer" data-testid="short-url">
          {l.shortUrl}
        </a>
        <CopyButton value={l.shortUrl} label="Copy short URL" />
        <span className={`pill ${l.status === 'active' ? 'ok' : 'bad'}`}>{l.status}</span>
        <span className="muted truncate">→ {l.originalUrl}</span>
      </div>

      <div className="page-header">
        <h2>Analytics</h2>
        <RangePicker value={days} onChange={(d) => update((next) => next.set('days', String(d)))} />
      </div>
      <ErrorBanner error={stats.error} />
      {stats.isPending ? (
        <Loading label="Loading analytics…" />
      ) : s ? (
        <>
          <div className="grid-3">
            <Stat label={`Clicks (${days} days)`} value={fmtNumber(s.totalClicks)} testId="total-clicks" />
            <Stat label="Unique visitors" value={fmtNumber(s.uniqueClicks)} />
            <Stat label="All-time clicks" value={fmtNumber(l.clickCount)} />
          </div>
          <FilterChips filters={filters} onRemove={removeFilter} />
          <div className="grid-3" aria-label="Conversions">
            <Stat label={`Leads (${days} days)`} value={fmtNumber(s.leads)} testId="link-leads" />
            <Stat label="Sales" value={fmtNumber(s.sales)} testId="link-sales" />
            <Stat label="Net revenue" value={fmtRevenue(s.revenue)} />
          </div>
          <div className="card">
            <h3>Clicks by day ({timeZone})</h3>
            <TimeSeries points={s.clicksByDate.map((d) => ({ date: d.date, value: d.clicks }))} label="Clicks" />
          </div>
          <div className="grid-3">
            <FilterList
              title="Countries"
              filterKey="country"
              filters={filters}
              onFilter={setFilter}
              rows={s.clicksByCountry.map((c) => ({ value: c.countryCode, label: c.country || c.countryCode, clicks: c.clicks }))}
            />
            <FilterList
              title="Cities"
              filterKey="city"
              filters={filters}
              onFilter={setFilter}
              rows={s.clicksByCity.map((c) => ({ value: c.city, label: [c.city, c.countryCode].filter(Boolean).join(', '), clicks: c.clicks }))}
            />
            <FilterList
              title="Devices"
              filterKey="device"
              filters={filters}
              onFilter={setFilter}
              rows={s.clicksByDevice.map((c) => ({ value: c.device, label: c.device, clicks: c.clicks }))}
            />
            <div className="card">
              <h3>Platforms</h3>
              <BarList rows={s.clicksByPlatform.map((c) => ({ label: c.platform || 'Unknown', value: c.clicks }))} />
            </div>
            {extra.clicksByReferrer && (
              <div className="card">
                <h3>Referrers</h3>
                <BarList rows={extra.clicksByReferrer.map((c) => ({ label: c.referrer || 'Direct', value: c.clicks }))} />
              </div>
            )}
            {extra.clicksByVariant && extra.clicksByVariant.length > 0 && (
              <div className="card">
                <h3>Variants</h3>
                <BarList rows={extra.clicksByVariant.map((c) => ({ label: `#${c.variant + 1} ${c.url}`, value: c.clicks }))} />
              </div>
            )}
            {extra.clicksByRule && extra.clicksByRule.length > 0 && (
              <div className="card">
                <h3>Redirect rules</h3>
                <BarList rows={extra.clicksByRule.map((c) => ({ label: c.rule === null ? 'No rule' : `Rule ${c.rule + 1}`, value: c.clicks }))} />
              </div>
            )}
          </div>
        </>
      ) : null}

      <LivePanel linkId={id} />

      <div className="card">
        <h2>Recent clicks</h2>
        <p className="hint">Times in {timeZone}. Bots are not counted.</p>
        <ErrorBanner error={clicks.error} />
        {clicks.isPending ? (
          <Loading />
        ) : clicks.data && clicks.data.length ? (
          <div className="table-wrap">
            <table className="plain" data-testid="click-list">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Where</th>
                  <th>Device</th>
                  <th>Browser</th>
                  <th>Referrer</th>
                </tr>
              </thead>
              <tbody>
                {clicks.data.map((c) => (
                  <tr key={c.id}>
                    <td>{fmtDateTime(c.clickedAt)}</td>
                    <td>{[c.city, c.countryName ?? c.countryCode].filter(Boolean).join(', ') || '—'}</td>
                    <td>{[c.deviceType, c.os].filter(Boolean).join(' · ') || '—'}</td>
                    <td>{c.browser ?? '—'}</td>
                    <td className="truncate">{c.referrer ?? 'Direct'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No clicks yet. Share the short URL above; clicks appear here within seconds.</p>
        )}
      </div>

      <QrPanel id={id} code={l.shortCode} />

      <ConfirmDialog
        open={confirming}
        title={`Delete /${l.shortCode}?`}
        body={<p>The short URL stops working at once. Its analytics are kept for reports.</p>}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
      <ErrorBanner error={remove.error} />
    </section>
  );
}
