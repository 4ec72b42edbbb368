/**
 * Two per-visit costs of the redirect edge, in-process, each against what it replaced (the
 * HTTP bench, bench/redirect.ts, cannot resolve a change under ~1 µs on a shared machine):
 * - request metrics: prom-client's `inc` + `observe` with a fresh label object (two label
 *   hashes a request) vs `HttpRequestMetrics.record`;
 * - the click record's JSON in a 300-click `click.batch` (a flush under load), with the null
 *   facts and empty `query` the edge used to send vs without them (bench's visit: no referrer,
 *   no Accept-Language, no utm_*).
 * - the decision for a link with 5 redirect rules the visit misses and 2 A/B variants vs a plain
 *   link (bench/redirect.ts --controls' links and visit), a fresh `Visit` per visit as the
 *   edge makes them.
 * Figures are the best of --rounds rounds (the least disturbed by other processes), ns per item.
 *
 *   node tools/scripts/run.js bench/redirect-parts.ts [--rounds 10]
 */
import { loadavg } from 'node:os';
import { Counter, Histogram, Registry } from 'prom-client';
import { HTTP_DURATION_BUCKETS, HttpRequestMetrics } from '@dl/platform/observability';
import { CountryLookup, decide, EdgeRequest, RedirectLinkSnapshot, Visit } from '@dl/redirect';
import { IPHONE, MISSED_RULES } from './control-links';

const i = process.argv.indexOf('--rounds');
const rounds = i > 0 ? Number(process.argv[i + 1]) : 10;

/** Best ns per item over the rounds. */
function best(items: number, run: () => void): number {
  let min = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    run();
    min = Math.min(min, Number(process.hrtime.bigint() - t) / items);
  }
  return Math.round(min);
}

function metrics() {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const counter = new Counter({ name: 'a_total', help: 'a', labelNames, registers: [registry] });
  const histogram = new Histogram({ name: 'b', help: 'b', labelNames, buckets: [...HTTP_DURATION_BUCKETS], registers: [registry] });
  const combined = new HttpRequestMetrics(new Registry());
  const routes = ['/:shortCode', '/health'];
  const n = 500_000;
  return {
    promClientNs: best(n, () => {
      for (let k = 0; k < n; k++) {
        const labels = { method: 'GET', route: routes[k & 1], status: String(k & 2 ? 302 : 404) };
        counter.inc(labels);
        histogram.observe(labels, 0.0003 * (k % 7));
      }
    }),
    recordNs: best(n, () => {
      for (let k = 0; k < n; k++) combined.record('GET', routes[k & 1], k & 2 ? 302 : 404, 0.0003 * (k % 7));
    }),
  };
}

function clickJson() {
  const click = (k: number, nulls: boolean) => {
    const c: Record<string, unknown> = {
      id: `019abcde-f012-7abc-8def-0123456789${String(k % 100).padStart(2, '0')}`,
      linkId: '5e1f0000-0000-4000-8000-000000000001',
      organizationId: '5e1f0000-0000-4000-8000-000000000002',
      clickedAt: '2026-11-25T10:00:00.000Z',
      ip: '127.0.0.1',
      userAgent: IPHONE,
    };
    if (nulls) Object.assign(c, { referrer: null, acceptLanguage: null, query: {} });
    return c;
  };
  const perBatch = 300;
  const batches = 300;
  const measure = (nulls: boolean) => {
    const batch = { clicks: Array.from({ length: perBatch }, (_, k) => click(k, nulls)) };
    return {
      bytesPerClick: Math.round(JSON.stringify(batch).length / perBatch),
      nsPerClick: best(perBatch * batches, () => {
        for (let b = 0; b < batches; b++) JSON.stringify(batch);
      }),
    };
  };
  return { withNulls: measure(true), withoutNulls: measure(false) };
}

function decision() {
  const plain: RedirectLinkSnapshot = {
    id: '5e1f0000-0000-4000-8000-000000000001', organizationId: '5e1f0000-0000-4000-8000-000000000002', shortCode: 'bench0001',
    originalUrl: 'https://example.com/landing/1', iosUrl: null, androidUrl: null, webFallbackUrl: null, utmParameters: null,
    targetingRules: null, ogTitle: null, ogDescription: null, ogImageUrl: null, isActive: true, expiresAt: null, title: null,
    passwordHash: null, expiredUrl: null, maxClicks: null, variants: null, redirectRules: null, cloak: false, publicStats: false,
  };
  // The same five rules and two variants as bench/redirect.ts --controls.
  const controls: RedirectLinkSnapshot = {
    ...plain,
    shortCode: 'ctrl0001',
    redirectRules: MISSED_RULES,
    variants: [{ url: 'https://a.example/landing/1', weight: 50 }, { url: 'https://b.example/landing/1', weight: 50 }],
  };
  const countries = new CountryLookup(undefined);
  const req: EdgeRequest = {
    method: 'GET', url: '/ctrl0001?ref=bench', socket: { remoteAddress: '127.0.0.1' },
    headers: { host: '127.0.0.1', 'user-agent': IPHONE, 'accept-language': 'en-US,en;q=0.9' },
  };
  const visitOf = (link: RedirectLinkSnapshot) => Object.assign(new Visit(req, 'ctrl0001', { countries, trustedIpHeader: undefined }), { link });
  const n = 200_000;
  const measure = (link: RedirectLinkSnapshot) => {
    const first = decide(visitOf(link));
    if (first.kind !== 'redirect') throw new Error(`the ${link.shortCode} visit answered ${first.kind}`);
    return best(n, () => {
      for (let k = 0; k < n; k++) decide(visitOf(link));
    });
  };
  const plainNs = measure(plain);
  const rulesAndVariantsNs = measure(controls);
  return { plainNs, rulesAndVariantsNs, addedNs: rulesAndVariantsNs - plainNs };
}

const result = { bench: 'redirect-parts', rounds, requestMetrics: metrics(), clickRecordJson: clickJson(), decision: decision(), loadAverage: loadavg()[0].toFixed(1) };
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
