/**
 * Redirect edge throughput against the bare `node:http` server answering the same 302s from a
 * map: `wrk` drives each in turn (rounds alternate, so both meet the same shared host), and the
 * CPU time of each server process per request comes from /proc beside its req/s. Then the
 * latency at half the edge's rate (open loop, `open-load.ts`) of the edge and of the bare server
 * (the floor), and the edge's memory. Every visit is a 302 that queues its click.
 *
 *   node tools/scripts/run.js bench/redirect.ts [--seconds 5] [--rounds 3] [--connections 64] [--links 100] [--rate N]
 *   … --branded    the same links on a branded domain too: bare vs service host vs `Host: go.bench.test`
 *   … --controls   plain links vs links with 5 redirect rules + 2 A/B variants vs capped links (one Redis call a visit)
 *
 * Goals: edge ≥ 60% of bare req/s; p99 < 10 ms at half the edge's rate; resident memory < 200 MB.
 */
import { get as httpGet } from 'node:http';
import { TestEnv } from '@dl/testing';
import { capturedClicks, startEdgeBench } from './edge';
import { arg, flag, log, median, memoryMb, print, round, runBench, span, VISIT_HEADERS, wrkWithCpu } from './kit';
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

/** `ctrl…` links with the rules and two variants (no iosUrl, so the variant answers), `cap…` links with a cap never reached. */
async function seedControls(env: TestEnv, rows: Rows): Promise<void> {
  const code = (prefix: string, i: number) => `${prefix}${i.toString().padStart(4, '0')}`;
  await env.prisma.link.createMany({
    data: rows.flatMap((l, i) => [
      { ...l, shortCode: code('ctrl', i), iosUrl: null, redirectRules: MISSED_RULES, variants: [{ url: `https://a.example/${i}`, weight: 50 }, { url: `https://b.example/${i}`, weight: 50 }] },
      { ...l, shortCode: code('cap', i), maxClicks: 1_000_000_000 },
    ]) as never,
  });
}

type Scenario = { name: string; url: string; pid: number; paths: string[]; headers: Record<string, string> };

function location(url: string, path: string, headers: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve, reject) => httpGet(`${url}${path}`, { headers }, (res) => (res.resume(), resolve(res.headers.location))).on('error', reject));
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 5);
  const rounds = arg('rounds', 3);
  const connections = arg('connections', 64);
  const linkCount = arg('links', 100);
  const branded = flag('branded');
  const controls = flag('controls');
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
    const scenarios: Scenario[] = [{ name: 'bare', url: bare.url, pid: bare.proc.pid!, paths, headers: VISIT_HEADERS }, { name: 'edge', url: redirect.url, pid, paths, headers: VISIT_HEADERS }];
    if (branded) {
      const headers = { ...VISIT_HEADERS, host: BRANDED_HOST };
      if (!(await location(redirect.url, paths[0], { host: BRANDED_HOST }))?.includes('on=branded')) throw new Error('the branded host does not answer its links');
      scenarios.push({ name: 'brandedHost', url: redirect.url, pid, paths, headers });
    }
    if (controls) {
      const ctrl = paths.map((_, i) => `/ctrl${i.toString().padStart(4, '0')}?ref=bench`);
      if (!/^https:\/\/[ab]\.example\//.test((await location(redirect.url, ctrl[0], VISIT_HEADERS)) ?? '')) throw new Error('the rules+variants link did not answer a variant');
      scenarios.push({ name: 'rulesAndVariants', url: redirect.url, pid, paths: ctrl, headers: VISIT_HEADERS });
      scenarios.push({ name: 'capped', url: redirect.url, pid, paths: paths.map((_, i) => `/cap${i.toString().padStart(4, '0')}?ref=bench`), headers: VISIT_HEADERS });
    }

    log('warm-up');
    let redirects = 0;
    for (const s of scenarios) {
      const warm = await wrkWithCpu([s.pid], { url: s.url, paths: s.paths, headers: s.headers, connections: 16, seconds: 2 });
      if (s.name !== 'bare') redirects += warm.requests;
    }
    const memoryAfterWarmup = memoryMb(pid);
    const runs: Record<string, Array<Awaited<ReturnType<typeof wrkWithCpu>>>> = {};
    for (let r = 1; r <= rounds; r++) {
      for (const s of scenarios) {
        log('round', { round: r, of: rounds, scenario: s.name, seconds, connections });
        const run = await wrkWithCpu([s.pid], { url: s.url, paths: s.paths, headers: s.headers, connections, seconds });
        if (run.notOk || run.errors) throw new Error(`${s.name}: ${run.notOk} answers other than 302, ${run.errors} errors`);
        (runs[s.name] ??= []).push(run);
        if (s.name !== 'bare') redirects += run.requests;
      }
    }
    const summary = Object.fromEntries(
      Object.entries(runs).map(([name, list]) => {
        const rps = list.map((x) => x.requestsPerSecond);
        const cpu = list.map((x) => x.cpuMicrosPerRequest);
        return [name, { requestsPerSecond: median(rps), range: span(rps), cpuMicrosPerRequest: median(cpu), cpuRange: span(cpu), p99MsWorstRound: Math.max(...list.map((x) => x.latencyMs.p99)) }];
      }),
    );
    const ratio = (s: (typeof summary)[string]) => ({ throughput: round(s.requestsPerSecond / summary.bare.requestsPerSecond, 2), cpuPerRequest: round(s.cpuMicrosPerRequest / summary.bare.cpuMicrosPerRequest, 2) });
    const toBare = Object.fromEntries(Object.entries(summary).filter(([name]) => name !== 'bare').map(([name, s]) => [name, ratio(s)]));
    const result: Record<string, unknown> = { bench: 'redirect', tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds, alternating`, links: linkCount, ...summary, ratioToBare: toBare };

    if (!branded && !controls) {
      // Latency at half the edge's rate (or --rate), open loop from the scheduled send; the bare server at the same rate is the floor.
      const rate = arg('rate', 0) || Math.round(summary.edge.requestsPerSecond / 2);
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
}

runBench(main);
