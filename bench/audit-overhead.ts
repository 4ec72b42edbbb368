/**
 * What recording an audit entry adds to a request (goal: ≤ 1 ms at p50): the same authenticated
 * POST answered with and without `AuditRecorder.record`, in the api (request context, batching,
 * the chained writes to Postgres in the background). The api runs in a child process; `wrk`
 * drives it; scenarios alternate over rounds. Medians per scenario: p50 latency, req/s and the api
 * process's CPU µs per request; afterwards the entries written and whether the chain verifies.
 *
 *   node tools/scripts/run.js bench/audit-overhead.ts [--seconds 4] [--connections 10] [--rounds 4]
 */
import { Controller, HttpCode, Post } from '@nestjs/common';
import { AuditLogService, AuditRepository, AuditSink, NO_AUDIT } from '@dl/audit';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import type { AppConfig } from '@dl/platform/config';
import { createTestEnv, ensureTemplateDatabase, seedOrganization } from '@dl/testing';
import { arg, BenchApi, log, median, print, round, runApiBench, wrkWithCpu } from './kit';

@Controller('bench')
class BenchController {
  constructor(private readonly audit: AuditSink) {}

  @Post('plain')
  @HttpCode(200)
  @Auth(Permissions.read, { rateLimit: false })
  plain() {
    return { ok: true };
  }

  @Post('audited')
  @HttpCode(200)
  @Auth(Permissions.read, { rateLimit: false })
  audited(@CurrentPrincipal() p: Principal) {
    this.audit.record({ organizationId: p.organizationId, action: 'project.updated', targetId: 'bench', changes: { name: 'bench', secret: 'x' } });
    return { ok: true };
  }
}

async function main(serve: (config: AppConfig) => Promise<BenchApi>): Promise<void> {
  const seconds = Math.min(arg('seconds', 4), 10);
  const connections = arg('connections', 10);
  const rounds = arg('rounds', 4);
  await ensureTemplateDatabase();
  const env = await createTestEnv({ LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: 'false' });
  const org = await seedOrganization(env, { tier: 'UNLIMITED', name: 'Bench' });
  const api = await serve(env.config);
  const headers = { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' };
  const p50: Record<string, number[]> = {};
  const rps: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  let stopped = false;
  try {
    await wrkWithCpu([api.pid], { url: `${api.url}/bench/plain`, method: 'POST', body: '{}', headers, connections, seconds: 2 });
    for (let r = 1; r <= rounds; r++) {
      for (const name of ['plain', 'audited']) {
        const res = await wrkWithCpu([api.pid], { url: `${api.url}/bench/${name}`, method: 'POST', body: '{}', headers, connections, seconds });
        if (res.notOk || res.errors) throw new Error(`${name}: ${res.notOk} non-2xx, ${res.errors} errors`);
        (p50[name] ??= []).push(res.latencyMs.p50);
        (rps[name] ??= []).push(res.requestsPerSecond);
        (cpu[name] ??= []).push(res.cpuMicrosPerRequest);
        log('round', { r, name, p50: res.latencyMs.p50, rps: res.requestsPerSecond, cpu: res.cpuMicrosPerRequest });
      }
    }
    await api.stop(); // drains the recorder
    stopped = true;
    const written = await env.prisma.auditEntry.count({ where: { organizationId: org.organization.id } });
    const verify = await new AuditLogService(new AuditRepository(env.prisma, env.config), NO_AUDIT).verify(org.organization.id);
    print({
      bench: 'audit-overhead',
      tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds`,
      medianP50Ms: { plain: median(p50.plain), audited: median(p50.audited) },
      addedP50Ms: round(median(p50.audited) - median(p50.plain), 2),
      medianRequestsPerSecond: { plain: median(rps.plain), audited: median(rps.audited) },
      medianCpuMicrosPerRequest: { plain: median(cpu.plain), audited: median(cpu.audited) },
      entriesWritten: written,
      chainValid: verify.valid,
    });
  } finally {
    if (!stopped) await api.stop();
    await env.teardown();
  }
}

runApiBench(__filename, BenchController, { requestLog: false, requestContext: true }, main);
