import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { BarList, TimeSeries } from '../components/charts';
import { fmtDateTime, fmtDay, fmtNumber, fmtPercent } from '../components/format';
import { fmtMoney } from '../components/money';
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

type Conversions = components['schemas']['ReportConversionsDto'];
type Revenue = components['schemas']['ReportConversionRevenueDto'];

/** One currency's revenue and its best links (amounts of different currencies are never added up). */
function CurrencyRevenue({ rev, prior }: { rev: Revenue; prior: string }) {
  const money = (minor: number) => fmtMoney(minor, rev.currency);
  return (
    <section className="card report-currency" aria-label={`Revenue in ${rev.currency}`}>
      <h4>{rev.currency}</h4>
      <p>
        <strong>{money(rev.net)}</strong> net from {fmtNumber(rev.sales)} {rev.sales === 1 ? 'sale' : 'sales'}
        {rev.refunded ? ` · ${money(rev.refunded)} refunded` : ''}
      </p>
      <p className="hint">
        {money(rev.prior)} net in {prior}
      </p>
      {rev.topLinks.length > 0 && (
        <table className="plain">
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col" className="num">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {rev.topLinks.map((l) => (
              <tr key={`${l.label}|${l.sublabel}`}>
                <td>
                  {l.label}
                  <div className="hint link-url">{l.sublabel}</div>
                </td>
                <td className="num">
                  {money(l.net)}
                  <div className="hint">
                    {fmtNumber(l.sales)} {l.sales === 1 ? 'sale' : 'sales'}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * The report's conversions section (decisions §23): leads and sales with their change, then each
 * currency on its own. Null is a FREE plan or a month without any lead or sale; undefined a report
 * stored before the section existed.
 */
function ConversionsSection({ r }: { r: Report }) {
  const c = r.conversions as Conversions | null | undefined;
  const prior = r.period.priorLabel;
  let body;
  if (c === undefined) {
    body = <p className="hint">This report was made before conversions were part of monthly reports.</p>;
  } else if (c === null && r.organization.tier === 'FREE') {
    body = (
      <p className="hint">
        Leads and sales attributed to your links are tracked on paid plans. <Link to="/billing">See the plans</Link>.
      </p>
    );
  } else if (c === null) {
    body = (
      <p className="hint">
        No leads or sales were tracked this month. Send them from your server with POST /api/track/lead and /api/track/sale, or connect Stripe or Shopify on the{' '}
        <Link to="/integrations">Integrations page</Link>.
      </p>
    );
  } else {
    body = (
      <>
        <div className="grid-2">
          <KpiCard label="Leads" kpi={c.leads} prior={prior} />
          <KpiCard label="Sales" kpi={c.sales} prior={prior} />
        </div>
        {c.revenue.length ? (
          <div className="grid-2">
            {c.revenue.map((rev) => (
              <CurrencyRevenue key={rev.currency} rev={rev} prior={prior} />
            ))}
          </div>
        ) : (
          <p className="hint">No sales this month: leads only.</p>
        )}
        <p className="hint">
          <Link to="/conversions">Open Conversions</Link> for the funnel, campaigns and customers.
        </p>
      </>
    );
  }
  return (
    <section className="card form" aria-labelledby="report-conversions">
      <h3 id="report-conversions">Conversions</h3>
      {body}
    </section>
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
      <ConversionsSection r={r} />
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
