/**
 * What recording an audit entry adds to a request (goal: ≤ 1 ms at p50): the same authenticated
 * POST answered with and without `AuditRecorder.record`, in the api (request context, batching,
 * the chained writes to Postgres in the background). The api runs in a child process; `wrk`
 * drives it; scenarios alternate over rounds. Medians per scenario of p50, req/s and the api
 * process's CPU µs per request; then the entries written and whether the chain verifies.
 *
 *   node tools/scripts/run.js bench/audit-overhead.ts [--seconds 4] [--connections 10] [--rounds 4]
 */
import { Controller, HttpCode, Post } from '@nestjs/common';
import { AuditLogService, AuditRepository, AuditSink, NO_AUDIT } from '@dl/audit';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { alternate, arg, print, round, runApiBench, summarize, warmUp } from './kit';

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

runApiBench(__filename, BenchController, { requestLog: false, requestContext: true }, { RATE_LIMIT_ENABLED: 'false' }, async ({ env, org, api }) => {
  const [seconds, connections, rounds] = [Math.min(arg('seconds', 4), 10), arg('connections', 10), arg('rounds', 4)];
  const headers = { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' };
  const scenarios = ['plain', 'audited'].map((name) => ({ name, pids: [api.pid], load: { url: `${api.url}/bench/${name}`, method: 'POST', body: '{}', headers, connections, seconds } }));
  await warmUp(scenarios);
  const { medians, ratioTo } = summarize(await alternate(scenarios, rounds), 'plain');
  await api.stop(); // drains the recorder
  const written = await env.prisma.auditEntry.count({ where: { organizationId: org.organization.id } });
  const verify = await new AuditLogService(new AuditRepository(env.prisma, env.config), NO_AUDIT).verify(org.organization.id);
  const addedP50Ms = round(medians.audited.p50Ms - medians.plain.p50Ms, 2);
  print({ bench: 'audit-overhead', tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds`, medians, ratioTo, addedP50Ms, entriesWritten: written, chainValid: verify.valid });
});
