import type { components } from '../api/schema';
import { fmtNumber, fmtPercent } from './format';
import { Stat } from './ui';

type Usage = components['schemas']['UsageResponseDto'];

/** One plan limit: used of limit (or unlimited), a bar, and the share in words, red from 90 %; `over` is said past the limit. */
function Meter({ label, used, limit, over }: { label: string; used: number; limit: number | null; over?: string }) {
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
          <span className={share >= 0.9 ? 'field-error' : 'hint'}>{over && share > 1 ? over : `${fmtPercent(share)} of your plan`}</span>
        </>
      )}
    </Stat>
  );
}

/** The organization's use of its plan (GET /api/usage): links, clicks this month, API keys. */
export function PlanMeters({ usage, over }: { usage: Usage; over?: string }) {
  return (
    <div className="grid-3">
      <Meter label="Links" used={usage.links.used} limit={usage.links.limit ?? null} over={over} />
      <Meter label="Clicks this month" used={usage.clicksThisMonth.used} limit={usage.clicksThisMonth.limit ?? null} over={over} />
      <Meter label="API keys" used={usage.apiKeys.used} limit={usage.apiKeys.limit ?? null} over={over} />
    </div>
  );
}
