/**
 * Authenticated request overhead (issue 3: goal under 10%). A trivial GET answered
 * by the api with no credential vs the same handler behind @Auth, with a dl_ key
 * and with a JWT, with and without the Redis rate limiter. The api runs in a child
 * process (the load generator never shares its event loop); autocannon on loopback.
 *
 * Scenarios alternate in short runs over several rounds and the median per scenario is
 * reported, so load from other work on a shared machine hits every scenario alike.
 * Besides requests per second it reports the api process's CPU time per request
 * (/proc/<pid>/stat), which other load on the machine disturbs far less than throughput.
 *
 *   node tools/scripts/run.js bench/auth-overhead.ts [--seconds 4] [--connections 10] [--rounds 5] [--only 'dl_ key,JWT']
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanActivate, Controller, Get, Injectable, Logger, Module, UseGuards } from '@nestjs/common';
import { Auth, Permissions } from '@dl/auth';
import { ApiModule } from '@dl/apps/api';
import { AppConfig, loadConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { createTestEnv, ensureTemplateDatabase, seedOrganization } from '@dl/testing';

const ENV_VAR = 'DL_AUTH_BENCH_CONFIG';

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
const autocannon = require('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

/** Nest's guard machinery alone: what any guard costs before doing anything. */
@Injectable()
class AllowGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Controller('bench')
class BenchController {
  @Get('guarded')
  @UseGuards(AllowGuard)
  guarded() {
    return { ok: true };
  }

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

function createBenchApp(config: AppConfig) {
  @Module({ imports: [ApiModule.forRoot(config)], controllers: [BenchController], providers: [AllowGuard] })
  class BenchModule {}
  return createHttpApp(BenchModule, config, 'api', { requestLog: false });
}

/** user and system CPU seconds of a process so far (Linux). */
function cpuTimes(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function serve(config: AppConfig): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const raw = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));
  const root = join(__dirname, '..');
  // DL_AUTH_BENCH_PROFILE=<dir> writes a CPU profile of the api process there.
  const profile = process.env.DL_AUTH_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.DL_AUTH_BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, join(root, 'tools/scripts/run.js'), __filename], {
    cwd: root,
    env: { ...process.env, [ENV_VAR]: JSON.stringify(raw) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.once('exit', (code) => reject(new Error(`api exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /READY (\S+)/.exec(buffer);
      if (!m) return;
      child.removeAllListeners('exit');
      resolve({
        url: m[1],
        child,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const seconds = Math.min(arg('seconds', 4), 10);
  const connections = arg('connections', 10);
  const rounds = arg('rounds', 5);
  await ensureTemplateDatabase();
  // UNLIMITED with a limit no run can reach, so the limiter does all its work but never refuses.
  const env = await createTestEnv({
    LOG_LEVEL: 'silent',
    PLAN_LIMITS: JSON.stringify({ UNLIMITED: { requestsPerMinute: 100_000_000 } }),
  });
  const org = await seedOrganization(env, { tier: 'UNLIMITED', name: 'Bench' });
  const api = await serve(env.config);
  const scenarios: Array<[string, string, Record<string, string>]> = [
    ['no credential', '/bench/open', {}],
    ['empty Nest guard', '/bench/guarded', {}],
    ['dl_ key', '/bench/auth', { authorization: `Bearer ${org.owner.apiKey}` }],
    ['JWT', '/bench/auth', { authorization: `Bearer ${org.owner.jwt}` }],
    ['dl_ key + rate limit (Redis)', '/bench/auth-limited', { authorization: `Bearer ${org.owner.apiKey}` }],
  ];
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;
  if (only) {
    for (let i = scenarios.length - 1; i > 0; i--) if (!only.includes(scenarios[i][0])) scenarios.splice(i, 1);
  }
  const results: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  /** User-space CPU alone: the JavaScript's own work, without the loopback socket syscalls. */
  const userCpu: Record<string, number[]> = {};
  try {
    for (const [, path, headers] of scenarios) {
      const check = await fetch(`${api.url}${path}`, { headers });
      if (check.status !== 200) throw new Error(`${path} answered ${check.status}`);
    }
    // Warm-up, then alternate scenarios so drift on a shared machine hits them alike.
    await autocannon({ url: `${api.url}/bench/open`, connections, duration: 2 });
    for (let round = 0; round < rounds; round++) {
      for (const [name, path, headers] of scenarios) {
        const before = cpuTimes(api.child.pid!);
        const r = await autocannon({ url: `${api.url}${path}`, headers, connections, duration: seconds });
        const after = cpuTimes(api.child.pid!);
        const userUs = ((after.user - before.user) / r.requests.total) * 1e6;
        const systemUs = ((after.system - before.system) / r.requests.total) * 1e6;
        const cpuUs = userUs + systemUs;
        if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        (results[name] ??= []).push(r.requests.average);
        (cpu[name] ??= []).push(cpuUs);
        (userCpu[name] ??= []).push(userUs);
        const line = { round, name, reqPerSec: r.requests.average, cpuUsPerRequest: Math.round(cpuUs), userUs: Math.round(userUs), systemUs: Math.round(systemUs), p50: r.latency.p50, p99: r.latency.p99 };
        process.stderr.write(`${JSON.stringify(line)}\n`);
      }
    }
  } finally {
    await api.stop();
    await env.teardown();
  }
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  const base = median(results['no credential']);
  const baseCpu = median(cpu['no credential']);
  const out = {
    bench: 'authenticated request overhead',
    connections,
    seconds,
    rounds,
    medianReqPerSec: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(median(v))])),
    throughputOverheadPct: Object.fromEntries(
      Object.entries(results)
        .filter(([k]) => k !== 'no credential')
        .map(([k, v]) => [k, Math.round((1 - median(v) / base) * 1000) / 10]),
    ),
    medianApiCpuUsPerRequest: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(median(v))])),
    medianApiUserCpuUsPerRequest: Object.fromEntries(Object.entries(userCpu).map(([k, v]) => [k, Math.round(median(v))])),
    cpuOverheadPct: Object.fromEntries(
      Object.entries(cpu)
        .filter(([k]) => k !== 'no credential')
        .map(([k, v]) => [k, Math.round((median(v) / baseCpu - 1) * 1000) / 10]),
    ),
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

async function child(): Promise<void> {
  Logger.overrideLogger(false);
  const config = loadConfig(JSON.parse(process.env[ENV_VAR]!));
  const app = await createBenchApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  process.stdout.write(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (process.env[ENV_VAR]) void child();
else
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
