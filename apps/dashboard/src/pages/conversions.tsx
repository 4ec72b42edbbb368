import { useDeferredValue, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { RangePicker, TimeSeries, type Range } from '../components/charts';
import { fmtDateTime, fmtNumber, fmtPercent } from '../components/format';
import { fmtMoney, fmtRevenue } from '../components/money';
import { ResourceTable } from '../components/resource';
import { useExport } from '../components/download';
import { Empty, ErrorBanner, isForbidden, Loading, PageHeader, Stat, Unavailable } from '../components/ui';

type Group = 'link' | 'campaign' | 'country' | 'source';
const GROUPS: Array<[Group, string]> = [
  ['link', 'By link'],
  ['campaign', 'By campaign'],
  ['country', 'By country'],
  ['source', 'By source'],
];

/** Sales of each UTC day of the range, days without sales included (the API answers only days that had some). */
function everyDay(days: number, rows: Array<{ key: string; sales: number }>): Array<{ date: string; value: number }> {
  const sales = new Map(rows.map((r) => [r.key, r.sales]));
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { date, value: sales.get(date) ?? 0 };
  });
}

/** Clicks → leads → sales, revenue per currency, the best links and campaigns, and the customers. */
export default function ConversionsPage() {
  const { id } = useParams();
  if (id) return <CustomerTimeline id={id} />;
  return <ConversionsOverview />;
}

function ConversionsOverview() {
  const [days, setDays] = useState<Range>(30);
  const [group, setGroup] = useState<Group>('link');
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const byDay = useQuery({ queryKey: ['conversions', days, 'day'], queryFn: () => unwrap(api.GET('/api/analytics/conversions', { params: { query: { days, groupBy: 'day' } } })) });
  const grouped = useQuery({ queryKey: ['conversions', days, group], queryFn: () => unwrap(api.GET('/api/analytics/conversions', { params: { query: { days, groupBy: group } } })) });
  const customers = useQuery({
    queryKey: ['customers', q],
    queryFn: () => unwrap(api.GET('/api/customers', { params: { query: { limit: 50, ...(q ? { search: q } : {}) } } })),
  });
  const exported = useExport();
  const exportCsv = () =>
    exported.run(`conversions-${days}d.csv`, async () => {
      const csv = await unwrap(api.GET('/api/analytics/conversions/export', { params: { query: { days } }, parseAs: 'blob' }));
      return csv as unknown as Blob;
    });
  if (isForbidden(byDay.error)) {
    return (
      <Unavailable title="Conversions" heading="Not available on your plan">
        {byDay.error.message}. Leads and sales are tracked on paid plans.
      </Unavailable>
    );
  }
  const s = byDay.data;
  return (
    <section className="page">
      <PageHeader title="Conversions">
        <RangePicker value={days} onChange={setDays} />
        <button type="button" className="button" onClick={exportCsv}>
          Export CSV
        </button>
      </PageHeader>
      <ErrorBanner error={byDay.error ?? exported.error} />
      {byDay.isPending ? (
        <Loading />
      ) : s ? (
        <>
          <div className="grid-4" aria-label="Funnel">
            <Stat label="Clicks" value={fmtNumber(s.clicks)} />
            <Stat label="Leads" value={fmtNumber(s.leads)}>
              <span className="muted">{fmtPercent(s.clickToLead)} of clicks became customers</span>
            </Stat>
            <Stat label="Sales" value={fmtNumber(s.sales)}>
              <span className="muted">{fmtPercent(s.leadToSale)} of customers bought</span>
            </Stat>
            <Stat label="Customers" value={fmtNumber(s.customers)} />
          </div>
          <div className="card">
            <h3>Revenue by currency</h3>
            {s.revenue.length ? (
              <table className="plain">
                <thead>
                  <tr>
                    <th scope="col">Currency</th>
                    <th scope="col" className="num">Sales</th>
                    <th scope="col" className="num">Refunded</th>
                    <th scope="col" className="num">Net</th>
                  </tr>
                </thead>
                <tbody>
                  {s.revenue.map((r) => (
                    <tr key={r.currency}>
                      <td>{r.currency}</td>
                      <td className="num">{fmtMoney(r.amount, r.currency)}</td>
                      <td className="num">{fmtMoney(r.refunded, r.currency)}</td>
                      <td className="num">{fmtMoney(r.net, r.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">No sales in this range. Send them with POST /api/track/sale or connect Stripe or Shopify on the Integrations page.</p>
            )}
          </div>
          <div className="card">
            <h3>Sales by day (UTC)</h3>
            <TimeSeries points={everyDay(days, s.rows)} label="Sales" />
          </div>
        </>
      ) : null}
      <div className="page-header">
        <h2>Breakdown</h2>
        <div className="segmented" role="group" aria-label="Group by">
          {GROUPS.map(([value, label]) => (
            <button key={value} type="button" className={`button small${group === value ? ' primary' : ''}`} aria-pressed={group === value} onClick={() => setGroup(value)}>
              {label}
            </button>
          ))}
        </div>
      </div>
      <ErrorBanner error={grouped.error} />
      <ResourceTable
        loading={grouped.isPending}
        items={grouped.data?.rows}
        empty={{ title: 'Nothing to break down yet', body: 'Leads and sales appear here as soon as they are tracked.' }}
        head={[GROUPS.find(([g]) => g === group)![1].replace('By ', '').replace(/^./, (c) => c.toUpperCase()), 'Clicks', 'Leads', 'Sales', 'Net revenue']}
        numeric={['Clicks', 'Leads', 'Sales']}
        label="Conversions breakdown"
      >
        {(r) => (
          <tr key={r.key}>
            <td>{group === 'link' && r.key !== '00000000-0000-0000-0000-000000000000' ? <Link to={`/links/${r.key}`}>{r.label}</Link> : r.label}</td>
            <td className="num">{fmtNumber(r.clicks)}</td>
            <td className="num">{fmtNumber(r.leads)}</td>
            <td className="num">{fmtNumber(r.sales)}</td>
            <td>{fmtRevenue(r.revenue)}</td>
          </tr>
        )}
      </ResourceTable>
      <div className="page-header">
        <h2>Customers</h2>
        <label>
          <span className="visually-hidden">Search customers</span>
          <input type="search" placeholder="Search id, name or email" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      <ErrorBanner error={customers.error} />
      <ResourceTable
        loading={customers.isPending}
        items={customers.data?.customers}
        empty={{ title: 'No customers yet', body: 'Send a lead from your sign-up handler with POST /api/track/lead (see the conversions guide).' }}
        head={['Customer', 'Link', 'First lead', 'Sales', 'Net revenue']}
        numeric={['Sales']}
        label="Customers"
      >
        {(c) => (
          <tr key={c.id}>
            <td>
              <Link to={`/conversions/customers/${c.id}`}>{c.name ?? c.email ?? c.externalId}</Link>
              {c.name || c.email ? <div className="muted">{c.externalId}</div> : null}
            </td>
            <td>{c.shortCode ? <Link to={`/links/${c.linkId}`}>/{c.shortCode}</Link> : '—'}</td>
            <td>{fmtDateTime(c.firstLeadAt)}</td>
            <td className="num">{fmtNumber(c.sales)}</td>
            <td>{fmtRevenue(c.revenue)}</td>
          </tr>
        )}
      </ResourceTable>
    </section>
  );
}

function CustomerTimeline({ id }: { id: string }) {
  const customer = useQuery({ queryKey: ['customer', id], queryFn: () => unwrap(api.GET('/api/customers/{id}', { params: { path: { id } } })) });
  const c = customer.data;
  return (
    <section className="page">
      <PageHeader title={c ? (c.name ?? c.externalId) : 'Customer'}>
        <Link className="button" to="/conversions">
          All conversions
        </Link>
      </PageHeader>
      <ErrorBanner error={customer.error} />
      {customer.isPending ? (
        <Loading />
      ) : c ? (
        <>
          <div className="grid-4">
            <Stat label="Customer id" value={c.externalId} />
            <Stat label="Came from" value={c.shortCode ? `/${c.shortCode}` : 'No link'}>
              <span className="muted">{c.clickedAt ? `clicked ${fmtDateTime(c.clickedAt)}` : ''}</span>
            </Stat>
            <Stat label="Sales" value={fmtNumber(c.sales)} />
            <Stat label="Net revenue" value={fmtRevenue(c.revenue)} />
          </div>
          <div className="card">
            <h3>Timeline</h3>
            <ol className="timeline">
              {c.events.map((e) => (
                <li key={`${e.type}-${e.id}`}>
                  <time dateTime={e.createdAt}>{fmtDateTime(e.createdAt)}</time>{' '}
                  <strong>{e.type === 'lead' ? 'Lead' : e.type === 'sale' ? 'Sale' : 'Refund'}</strong>{' '}
                  {e.eventName ? <code>{e.eventName}</code> : null}{' '}
                  {e.amount !== null && e.currency ? (e.type === 'refund' ? `−${fmtMoney(e.amount, e.currency)}` : fmtMoney(e.amount, e.currency)) : null}
                  {e.invoiceId ? <span className="muted"> · {e.invoiceId}</span> : null}
                  {e.source ? <span className="muted"> · {e.source}</span> : null}
                </li>
              ))}
            </ol>
          </div>
        </>
      ) : null}
    </section>
  );
}
