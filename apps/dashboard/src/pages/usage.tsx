import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtNumber, fmtPercent } from '../components/format';
import { ErrorBanner, Loading, PageHeader, Stat } from '../components/ui';
import { PlanMeters } from '../components/plan-meters';

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
          <PlanMeters usage={usage.data} />
        </>
      ) : null}
    </section>
  );
}
