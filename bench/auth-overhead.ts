/**
 * Authenticated request overhead (goal: under 10%): a trivial GET answered by the api with no
 * credential, behind @Auth with a dl_ key and with a JWT, and with the Redis rate limiter. The api
 * runs in a child process; `wrk` drives it; scenarios alternate over rounds so drift on a shared
 * host hits them alike. Medians per scenario: req/s and the api process's CPU µs per request
 * (/proc), which other load disturbs far less than throughput.
 *
 *   node tools/scripts/run.js bench/auth-overhead.ts [--seconds 4] [--connections 10] [--rounds 5] [--only 'dl_ key,JWT']
 */
import { Controller, Get } from '@nestjs/common';
import { Auth, Permissions } from '@dl/auth';
import type { AppConfig } from '@dl/platform/config';
import { createTestEnv, ensureTemplateDatabase, seedOrganization } from '@dl/testing';
import { arg, argText, BenchApi, log, median, print, round, runApiBench, wrkWithCpu } from './kit';

@Controller('bench')
class BenchController {
  @Get('open')
  open() {
    return { ok: true };
  }

  @Get('auth')
  @Auth(Permissions.read, { rateLimit: false })
  auth() {
    return { ok: true };
  }

  @Get('auth-limited')
  @Auth(Permissions.read)
  limited() {
    return { ok: true };
  }
}

async function main(serve: (config: AppConfig) => Promise<BenchApi>): Promise<void> {
  const seconds = Math.min(arg('seconds', 4), 10);
  const connections = arg('connections', 10);
  const rounds = arg('rounds', 5);
  await ensureTemplateDatabase();
  // UNLIMITED with a limit no run reaches: the limiter does all its work but never refuses.
  const env = await createTestEnv({ LOG_LEVEL: 'silent', PLAN_LIMITS: JSON.stringify({ UNLIMITED: { requestsPerMinute: 100_000_000 } }) });
  const org = await seedOrganization(env, { tier: 'UNLIMITED', name: 'Bench' });
  const api = await serve(env.config);
  const only = argText('only', '').split(',').filter(Boolean);
  const scenarios = (
    [
      ['no credential', '/bench/open', {}],
      ['dl_ key', '/bench/auth', { authorization: `Bearer ${org.owner.apiKey}` }],
      ['JWT', '/bench/auth', { authorization: `Bearer ${org.owner.jwt}` }],
      ['dl_ key + rate limit (Redis)', '/bench/auth-limited', { authorization: `Bearer ${org.owner.apiKey}` }],
    ] as Array<[string, string, Record<string, string>]>
  ).filter(([name], i) => i === 0 || only.length === 0 || only.includes(name));
  const rps: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  try {
    for (const [name, path, headers] of scenarios) {
      const check = await fetch(`${api.url}${path}`, { headers });
      if (check.status !== 200) throw new Error(`${name}: ${path} answered ${check.status}`);
    }
    await wrkWithCpu([api.pid], { url: `${api.url}/bench/open`, connections, seconds: 2 });
    for (let round = 1; round <= rounds; round++) {
      for (const [name, path, headers] of scenarios) {
        const r = await wrkWithCpu([api.pid], { url: `${api.url}${path}`, headers, connections, seconds });
        if (r.notOk || r.errors) throw new Error(`${name}: ${r.notOk} non-2xx, ${r.errors} errors`);
        (rps[name] ??= []).push(r.requestsPerSecond);
        (cpu[name] ??= []).push(r.cpuMicrosPerRequest);
        log('round', { round, name, requestsPerSecond: r.requestsPerSecond, cpuMicrosPerRequest: r.cpuMicrosPerRequest, p99Ms: r.latencyMs.p99 });
      }
    }
  } finally {
    await api.stop();
    await env.teardown();
  }
  const baseRps = median(rps['no credential']);
  const baseCpu = median(cpu['no credential']);
  const over = (table: Record<string, number[]>, f: (m: number) => number) =>
    Object.fromEntries(Object.entries(table).filter(([k]) => k !== 'no credential').map(([k, v]) => [k, round(f(median(v)) * 100)]));
  print({
    bench: 'auth-overhead',
    tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds`,
    medianRequestsPerSecond: Object.fromEntries(Object.entries(rps).map(([k, v]) => [k, median(v)])),
    medianCpuMicrosPerRequest: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)])),
    throughputOverheadPct: over(rps, (m) => 1 - m / baseRps),
    cpuOverheadPct: over(cpu, (m) => m / baseCpu - 1),
  });
}

runApiBench(__filename, BenchController, { requestLog: false }, main);
