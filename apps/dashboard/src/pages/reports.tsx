import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { BarList, TimeSeries } from '../components/charts';
import { fmtDateTime, fmtDay, fmtNumber, fmtPercent } from '../components/format';
import { Empty, ErrorBanner, Loading, PageHeader, Stat } from '../components/ui';

type Report = components['schemas']['MonthlyReportDto'];
type Kpi = components['schemas']['ReportKpiDto'];

function KpiCard({ label, kpi, prior }: { label: string; kpi: Kpi | null | undefined; prior: string }) {
  if (!kpi) return null;
  const delta = kpi.deltaPct as number | null;
  return (
    <Stat label={label} value={fmtNumber(kpi.value)}>
      <span className={delta == null ? 'hint' : delta >= 0 ? 'delta-up' : 'delta-down'}>
        {delta == null ? `— vs ${prior}` : `${delta >= 0 ? '▲' : '▼'} ${fmtPercent(Math.abs(delta) / 100)} vs ${prior}`}
      </span>
    </Stat>
  );
}

const shares = (rows: Array<{ label: string; value: number }>) => rows.map((r) => ({ label: r.label, value: r.value }));

function ReportView({ r }: { r: Report }) {
  const installs = r.installs as components['schemas']['ReportInstallsDto'] | null;
  const events = r.events as components['schemas']['ReportEventsDto'] | null;
  const pixel = r.pixel as components['schemas']['ReportPixelDto'] | null;
  const bestDay = r.bestDay as { day: string; clicks: number } | null;
  return (
    <article className="form" aria-label={`Report for ${r.period.label}`}>
      <div className="card">
        <h2>{r.insights.headline}</h2>
        <p className="hint">
          {r.organization.name} · {r.period.label} · generated {fmtDateTime(r.generatedAt)}
        </p>
      </div>
      <div className="grid-4">
        <KpiCard label="Clicks" kpi={r.kpis.clicks} prior={r.period.priorLabel} />
        <KpiCard label="Unique visitors" kpi={r.kpis.uniques as Kpi | null} prior={r.period.priorLabel} />
        <KpiCard label="Installs" kpi={r.kpis.installs as Kpi | null} prior={r.period.priorLabel} />
        <KpiCard label="Sessions" kpi={r.kpis.sessions as Kpi | null} prior={r.period.priorLabel} />
      </div>
      <div className="card">
        <h3>Clicks per day</h3>
        <TimeSeries points={r.daily.map((d) => ({ date: d.day, value: d.clicks }))} label="Clicks" />
        {bestDay && (
          <p className="hint">
            Best day: {fmtDay(bestDay.day)} with {fmtNumber(bestDay.clicks)} clicks.
          </p>
        )}
      </div>
      <div className="grid-2">
        <div className="card">
          <h3>Top links</h3>
          <BarList rows={r.topLinks.map((l) => ({ label: l.sublabel ? `${l.label} (${l.sublabel})` : l.label, value: l.value }))} empty="No clicks this month" />
          {r.otherLinks.count > 0 && (
            <p className="hint">
              {fmtNumber(r.otherLinks.count)} other links: {fmtNumber(r.otherLinks.clicks)} clicks. {fmtNumber(r.zeroClickLinks)} links had no click.
            </p>
          )}
        </div>
        <div className="card">
          <h3>Sources</h3>
          <BarList rows={shares(r.sources)} />
        </div>
        <div className="card">
          <h3>Countries</h3>
          <BarList rows={shares(r.countries)} />
        </div>
        <div className="card">
          <h3>Devices</h3>
          <BarList rows={shares(r.devices)} />
        </div>
        {installs && (
          <div className="card">
            <h3>Installs</h3>
            <BarList rows={shares(installs.byPlatform)} />
            <p className="hint">
              {fmtNumber(installs.attributed)} attributed ({fmtPercent(installs.attributionRate)})
            </p>
          </div>
        )}
        {events && (
          <div className="card">
            <h3>In-app events</h3>
            <BarList rows={shares(events.byName)} />
          </div>
        )}
        {pixel && (
          <div className="card">
            <h3>Website</h3>
            <p>
              {fmtNumber(pixel.pageviews.value)} page views, {fmtNumber(pixel.conversions.value)} conversions ({fmtPercent(pixel.conversionRate)})
            </p>
          </div>
        )}
      </div>
      <div className="grid-2">
        <div className="card">
          <h3>Housekeeping</h3>
          <ul>
            <li>{fmtNumber(r.housekeeping.linksCreated.length)} links created</li>
            <li>{fmtNumber(r.housekeeping.linksExpired.length)} links expired</li>
            <li>{fmtNumber(r.housekeeping.linksDisabled)} links disabled</li>
            <li>{fmtNumber(r.housekeeping.linksWithStoreUrls)} links with app-store destinations</li>
          </ul>
        </div>
        <div className="card">
          <h3>Insights</h3>
          <ul>
            {[...r.insights.links, ...r.insights.events].map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
          {r.insights.actions.map((a) => (
            <p key={a.title}>
              <strong>{a.title}</strong> {a.body}
            </p>
          ))}
        </div>
      </div>
    </article>
  );
}

export default function ReportsPage() {
  const { period } = useParams();
  const list = useQuery({ queryKey: ['reports'], queryFn: () => unwrap(api.GET('/api/reports/monthly')) });
  const current = period ?? list.data?.reports[0]?.period;
  const report = useQuery({
    queryKey: ['report', current],
    enabled: Boolean(current),
    queryFn: () => unwrap(api.GET('/api/reports/monthly/{period}', { params: { path: { period: current as string } } })),
  });
  return (
    <section className="page">
      <PageHeader title="Monthly reports" />
      <ErrorBanner error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : !list.data?.reports.length ? (
        <Empty title="No reports yet">
          <p>The first report appears at the end of your first month.</p>
        </Empty>
      ) : (
        <>
          <nav aria-label="Months" className="page-actions">
            {list.data.reports.map((r) => (
              <Link key={r.period} to={`/reports/${r.period}`} className={`button small ${r.period === current ? 'primary' : ''}`} aria-current={r.period === current ? 'page' : undefined}>
                {r.label}
                {r.live ? ' (so far)' : ''}
              </Link>
            ))}
          </nav>
          <ErrorBanner error={report.error} />
          {report.isPending ? <Loading label="Building the report…" /> : report.data ? <ReportView r={report.data} /> : null}
        </>
      )}
    </section>
  );
}
