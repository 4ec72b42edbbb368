import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtNumber, fmtPercent } from '../components/format';
import { ErrorBanner, Loading, PageHeader, Stat } from '../components/ui';

function Meter({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  const share = limit ? used / limit : 0;
  return (
    <Stat
      label={label}
      value={
        <>
          {fmtNumber(used)} <span className="muted" style={{ fontSize: '1rem' }}>/ {limit == null ? 'unlimited' : fmtNumber(limit)}</span>
        </>
      }
    >
      {limit != null && (
        <>
          <progress max={limit} value={Math.min(used, limit)} aria-label={`${label}: ${fmtPercent(share)} of the plan`} style={{ width: '100%' }} />
          <span className={share >= 0.9 ? 'field-error' : 'hint'}>{fmtPercent(share)} of your plan</span>
        </>
      )}
    </Stat>
  );
}

export default function UsagePage() {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => unwrap(api.GET('/api/usage')) });
  return (
    <section className="page">
      <PageHeader title="Usage" />
      <ErrorBanner error={usage.error} />
      {usage.isPending ? (
        <Loading />
      ) : usage.data ? (
        <>
          <p>
            Plan: <strong>{String(usage.data.tier)}</strong>. Clicks are counted, never blocked: redirects keep working over the limit.
          </p>
          <div className="grid-3">
            <Meter label="Links" used={usage.data.links.used} limit={usage.data.links.limit ?? null} />
            <Meter label="Clicks this month" used={usage.data.clicksThisMonth.used} limit={usage.data.clicksThisMonth.limit ?? null} />
            <Meter label="API keys" used={usage.data.apiKeys.used} limit={usage.data.apiKeys.limit ?? null} />
          </div>
        </>
      ) : null}
    </section>
  );
}
