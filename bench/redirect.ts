/**
 * Redirect edge vs the bare `node:http` floor: req/s, CPU per request, p99 at half rate, memory (docs/performance.md).
 *   node tools/scripts/run.js bench/redirect.ts [--seconds 5] [--rounds 3] [--connections 64] [--links 100] [--branded] [--controls]
 */
import { get as httpGet } from 'node:http';
import { TestEnv } from '@dl/testing';
import { capturedClicks, startEdgeBench } from './edge';
import { alternate, arg, flag, log, memoryMb, print, runBench, summarize, VISIT_HEADERS, warmUp } from './kit';
import { openLoadRedirects } from './open-load';

const BRANDED_HOST = 'go.bench.test';

/** Five rules the bench's visit (iPhone, en-US, `?ref=bench`) never matches, so each visit evaluates all five. */
const MISSED_RULES = [
  { conditions: { countries: ['GB'] }, url: 'https://rules.example/gb' },
  { conditions: { languages: ['fr'] }, url: 'https://rules.example/fr' },
  { conditions: { devices: ['android'] }, url: 'https://rules.example/android' },
  { conditions: { os: ['Windows'], browsers: ['Chrome'] }, url: 'https://rules.example/windows-chrome' },
  { conditions: { query: { ref: 'news' } }, url: 'https://rules.example/news' },
];

type Rows = Array<Record<string, unknown>>;

/** Copies of every link on a verified branded domain (same codes), answering `?on=branded`. */
async function seedBranded(env: TestEnv, rows: Rows): Promise<void> {
  const domain = await env.prisma.domain.create({
    data: { organizationId: rows[0].organizationId as string, domain: BRANDED_HOST, status: 'verified', verifiedAt: new Date(), verificationToken: '0'.repeat(32) },
  });
  await env.prisma.link.createMany({ data: rows.map((l) => ({ ...l, originalUrl: `${l.originalUrl as string}?on=branded`, domainId: domain.id, domainName: BRANDED_HOST })) as never });
}

const code = (prefix: string, i: number) => `${prefix}${i.toString().padStart(4, '0')}`;

/** `ctrl…` links with the rules and two variants (no iosUrl, so the variant answers), `cap…` links with a cap never reached. */
async function seedControls(env: TestEnv, rows: Rows): Promise<void> {
  await env.prisma.link.createMany({
    data: rows.flatMap((l, i) => [
      { ...l, shortCode: code('ctrl', i), iosUrl: null, redirectRules: MISSED_RULES, variants: [{ url: `https://a.example/${i}`, weight: 50 }, { url: `https://b.example/${i}`, weight: 50 }] },
      { ...l, shortCode: code('cap', i), maxClicks: 1_000_000_000 },
    ]) as never,
  });
}

function location(url: string, path: string, headers: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve, reject) => httpGet(`${url}${path}`, { headers }, (res) => (res.resume(), resolve(res.headers.location))).on('error', reject));
}

runBench(async () => {
  const [seconds, rounds, connections, linkCount] = [arg('seconds', 5), arg('rounds', 3), arg('connections', 64), arg('links', 100)];
  const [branded, controls] = [flag('branded'), flag('controls')];
  const edge = await startEdgeBench({
    links: linkCount,
    config: { LOG_LEVEL: 'silent' },
    beforeApps: async (env, links) => {
      if (branded) await seedBranded(env, links.rows);
      if (controls) await seedControls(env, links.rows);
    },
  });
  try {
    const { redirect, bare, paths } = edge;
    const pid = redirect.proc.pid!;
    const scenario = (name: string, url: string, pids: number[], p = paths, headers: Record<string, string> = VISIT_HEADERS) => ({ name, pids, load: { url, paths: p, headers, connections, seconds } });
    const scenarios = [scenario('bare', bare.url, [bare.pid]), scenario('edge', redirect.url, [pid])];
    if (branded) {
      if (!(await location(redirect.url, paths[0], { host: BRANDED_HOST }))?.includes('on=branded')) throw new Error('the branded host does not answer its links');
      scenarios.push(scenario('brandedHost', redirect.url, [pid], paths, { ...VISIT_HEADERS, host: BRANDED_HOST }));
    }
    if (controls) {
      const coded = (prefix: string) => paths.map((_, i) => `/${code(prefix, i)}?ref=bench`);
      if (!/^https:\/\/[ab]\.example\//.test((await location(redirect.url, coded('ctrl')[0], VISIT_HEADERS)) ?? '')) throw new Error('the rules+variants link did not answer a variant');
      scenarios.push(scenario('rulesAndVariants', redirect.url, [pid], coded('ctrl')), scenario('capped', redirect.url, [pid], coded('cap')));
    }

    log('warm-up');
    const warm = await warmUp(scenarios, 16);
    const memoryAfterWarmup = memoryMb(pid);
    const runs = await alternate(scenarios, rounds);
    const edgeRuns = [...warm.filter((_, i) => scenarios[i].name !== 'bare'), ...Object.entries(runs).flatMap(([name, list]) => (name === 'bare' ? [] : list))];
    let redirects = edgeRuns.reduce((n, x) => n + x.requests, 0);
    const { medians, ratioTo } = summarize(runs, 'bare');
    const result: Record<string, unknown> = { bench: 'redirect', tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds, alternating`, links: linkCount, ...medians, ratioTo };

    if (!branded && !controls) {
      // Latency at half the edge's rate, open loop from the scheduled send; the bare server at the same rate is the floor.
      const rate = Math.round(medians.edge.requestsPerSecond / 2);
      log('latency at a fixed rate', { rate, seconds });
      const atRate = async (url: string) => {
        const h = await openLoadRedirects({ url, paths, headers: () => VISIT_HEADERS, rate, seconds, maxSockets: 32 });
        if (h.ok !== h.sent) throw new Error(`${url}: ${h.ok} 302s of ${h.sent} sent`);
        redirects += url === redirect.url ? h.ok : 0;
        return { p50Ms: h.latency.p50, p99Ms: h.latency.p99, sendLagP99Ms: h.sendLag.p99 };
      };
      result.atRate = { rate, edge: await atRate(redirect.url), bare: await atRate(bare.url) };
      result.edgeMemoryMb = { afterWarmup: memoryAfterWarmup.rss, afterRuns: memoryMb(pid).rss, peak: memoryMb(pid).peak };
      // Every 302 queued its click (wrk does not count answers still in flight when its time is up).
      result.clicks = { redirectsCounted: redirects, captured: await capturedClicks(redirect.url) };
    }
    print(result);
  } finally {
    await edge.stop();
  }
});
