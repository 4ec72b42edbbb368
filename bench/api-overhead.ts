/**
 * What an api request pays for authentication (`--set auth`) or an audit entry (`--set audit`) (docs/performance.md).
 *   node tools/scripts/run.js bench/api-overhead.ts [--set auth|audit] [--seconds 4] [--connections 10] [--rounds 5] [--only 'dl_ key,JWT']
 */
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { AuditLogService, AuditRepository, AuditSink, NO_AUDIT } from '@dl/audit';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { alternate, arg, argText, print, round, runApiBench, summarize, warmUp } from './kit';

@Controller('bench')
class BenchController {
  constructor(private readonly audit: AuditSink) {}

  @Get('open') open() { return { ok: true }; }
  @Get('auth') @Auth(Permissions.read, { rateLimit: false }) auth() { return { ok: true }; }
  @Get('auth-limited') @Auth(Permissions.read) limited() { return { ok: true }; }

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

const audit = argText('set', 'auth') === 'audit';
// auth: UNLIMITED with a limit no run reaches, so the limiter does all its work but never refuses.
// audit: the request context the api keeps for audit entries (the auth set runs without it).
const config: Record<string, string> = audit ? { RATE_LIMIT_ENABLED: 'false' } : { PLAN_LIMITS: JSON.stringify({ UNLIMITED: { requestsPerMinute: 100_000_000 } }) };

runApiBench(BenchController, { requestLog: false, requestContext: audit }, config, async ({ env, org, api }) => {
  const [seconds, connections, rounds] = [Math.min(arg('seconds', 4), 10), arg('connections', 10), arg('rounds', 5)];
  const only = argText('only', '').split(',').filter(Boolean);
  const key = { authorization: `Bearer ${org.owner.apiKey}` };
  const post = { method: 'POST', body: '{}' };
  const json = { ...key, 'content-type': 'application/json' };
  const scenarios = (
    (audit
      ? [
          ['plain', '/bench/plain', json, post],
          ['audited', '/bench/audited', json, post],
        ]
      : [
          ['no credential', '/bench/open', {}],
          ['dl_ key', '/bench/auth', key],
          ['JWT', '/bench/auth', { authorization: `Bearer ${org.owner.jwt}` }],
          ['dl_ key + rate limit (Redis)', '/bench/auth-limited', key],
        ]) as Array<[string, string, Record<string, string>, typeof post?]>
  )
    .filter(([name], i) => i === 0 || only.length === 0 || only.includes(name))
    .map(([name, path, headers, request]) => ({ name, pids: [api.pid], load: { url: `${api.url}${path}`, headers, connections, seconds, ...request } }));
  await warmUp(scenarios);
  const { medians, ratioTo } = summarize(await alternate(scenarios, rounds), scenarios[0].name);
  const result: Record<string, unknown> = { bench: 'api-overhead', set: audit ? 'audit' : 'auth', tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds`, medians, ratioTo };
  if (audit) {
    await api.close(); // drains the recorder
    const written = await env.prisma.auditEntry.count({ where: { organizationId: org.organization.id } });
    const verify = await new AuditLogService(new AuditRepository(env.prisma, env.config), NO_AUDIT).verify(org.organization.id);
    Object.assign(result, { addedP50Ms: round(medians.audited.p50Ms - medians.plain.p50Ms, 2), entriesWritten: written, chainValid: verify.valid });
  }
  print(result);
});
