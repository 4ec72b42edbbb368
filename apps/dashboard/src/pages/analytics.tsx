import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import {
  Change,
  downloadCsv,
  FilterChips,
  FilterKey,
  FilterList,
  Filters,
  filterQuery,
  LivePanel,
  readFilters,
  useUrlFilters,
} from '../components/analytics-view';
import { RangePicker, RANGES, TimeSeries, type Range } from '../components/charts';
import { fmtNumber, timeZone } from '../components/format';
import { ErrorBanner, Loading, PageHeader, Stat } from '../components/ui';

/** The organization-wide view (decisions §24): filters set by clicking rows, the previous period, live clicks, CSV. */
export default function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const days = (RANGES as readonly number[]).includes(Number(params.get('days'))) ? (Number(params.get('days')) as Range) : 30;
  const filters = useMemo(() => readFilters(params), [params]);
  const { update, setFilter, removeFilter } = useUrlFilters(params, setParams);

  const view = useQuery({
    queryKey: ['analytics', days, filters],
    queryFn: () => unwrap(api.GET('/api/analytics', { params: { query: { days, tz: timeZone, ...filterQuery(filters) } } })),
    placeholderData: (previous) => previous,
  });
  const s = view.data;
  const lists = s
    ? {
        link: s.topLinks.map((l) => ({ value: l.linkId, label: l.title ? `${l.title} (/${l.shortCode})` : `/${l.shortCode}`, clicks: l.clicks })),
        country: s.clicksByCountry.map((c) => ({ value: c.countryCode, label: c.country || c.countryCode, clicks: c.clicks })),
        city: s.clicksByCity.map((c) => ({ value: c.city, label: [c.city, c.countryCode].filter(Boolean).join(', '), clicks: c.clicks })),
        device: s.clicksByDevice.map((c) => ({ value: c.device, label: c.device, clicks: c.clicks })),
        os: s.clicksByOs.map((c) => ({ value: c.value, label: c.value, clicks: c.clicks })),
        browser: s.clicksByBrowser.map((c) => ({ value: c.value, label: c.value, clicks: c.clicks })),
        referrer: s.clicksByReferrer.map((c) => ({ value: c.value, label: c.value, clicks: c.clicks })),
        utmSource: s.clicksByUtmSource.map((c) => ({ value: c.value, label: c.value, clicks: c.clicks })),
        utmMedium: s.clicksByUtmMedium.map((c) => ({ value: c.value, label: c.value, clicks: c.clicks })),
        utmCampaign: s.clicksByUtmCampaign.map((c) => ({ value: c.value, label: c.value, clicks: c.clicks })),
      }
    : null;
  const exportCsv = () => {
    if (!s || !lists) return;
    downloadCsv(`analytics-${days}d.csv`, [
      { name: 'day', rows: s.clicksByDate.map((d) => ({ label: d.date, clicks: d.clicks })) },
      { name: 'link', rows: lists.link },
      { name: 'country', rows: lists.country },
      { name: 'city', rows: lists.city },
      { name: 'device', rows: lists.device },
      { name: 'os', rows: lists.os },
      { name: 'browser', rows: lists.browser },
      { name: 'referrer', rows: lists.referrer },
      { name: 'utm_source', rows: lists.utmSource },
      { name: 'utm_medium', rows: lists.utmMedium },
      { name: 'utm_campaign', rows: lists.utmCampaign },
    ]);
  };
  const list = (title: string, key: FilterKey, rows: Array<{ value: string; label: string; clicks: number }>) => (
    <FilterList title={title} rows={rows} filterKey={key} filters={filters} onFilter={setFilter} />
  );

  return (
    <section className="page">
      <PageHeader title="Analytics">
        <RangePicker value={days} onChange={(d) => update((next) => next.set('days', String(d)))} />
        <button type="button" className="button" onClick={exportCsv} disabled={!s}>
          Export CSV
        </button>
      </PageHeader>
      <FilterChips filters={filters} onRemove={removeFilter} />
      <ErrorBanner error={view.error} />
      {view.isPending ? (
        <Loading label="Loading analytics…" />
      ) : s && lists ? (
        <>
          <div className="grid-3">
            <Stat label={`Clicks (${days} days)`} value={fmtNumber(s.totalClicks)} testId="total-clicks">
              <Change now={s.totalClicks} before={s.previous.totalClicks} />
            </Stat>
            <Stat label="Unique visitors" value={fmtNumber(s.uniqueClicks)} testId="unique-clicks">
              <Change now={s.uniqueClicks} before={s.previous.uniqueClicks} />
            </Stat>
            <Stat label="Previous period" value={fmtNumber(s.previous.totalClicks)} testId="previous-clicks">
              <span className="hint">The {days} days before, same filters</span>
            </Stat>
          </div>
          <section className="card" aria-label="Clicks per day">
            <TimeSeries points={s.clicksByDate.map((d) => ({ date: d.date, value: d.clicks }))} label="Clicks" />
          </section>
          <div className="grid-2">
            {list('Top links', 'linkId', lists.link)}
            <LivePanel />
            {list('Countries', 'country', lists.country)}
            {list('Cities', 'city', lists.city)}
            {list('Devices', 'device', lists.device)}
            {list('Referrers', 'referrerHost', lists.referrer)}
            {list('Operating systems', 'os', lists.os)}
            {list('Browsers', 'browser', lists.browser)}
            {list('UTM sources', 'utmSource', lists.utmSource)}
            {list('UTM mediums', 'utmMedium', lists.utmMedium)}
            {list('UTM campaigns', 'utmCampaign', lists.utmCampaign)}
          </div>
        </>
      ) : null}
    </section>
  );
}
