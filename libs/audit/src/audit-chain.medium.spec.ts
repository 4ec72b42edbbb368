import { repositoryEnv, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { AuditLogService } from './audit-log.service';
import { AuditRecorder, NO_AUDIT } from './audit-recorder';
import { AuditRetentionService } from './audit-retention.service';
import { AuditRepository } from './audit.repository';

/** The hash chain on real Postgres: concurrent writers, tampering, deletion, retention, tenancy. */
describe('audit log hash chain', () => {
  let env: TestEnv, repo: AuditRepository, acme: SeededOrganization, other: SeededOrganization;
  let a: AuditRecorder, b: AuditRecorder, log: AuditLogService;
  beforeAll(async () => {
    ({ env, acme, other } = await repositoryEnv(() => null));
    repo = new AuditRepository(env.prisma, env.config);
    // Two recorders: two api instances appending to the same chains at once.
    a = new AuditRecorder(repo);
    b = new AuditRecorder(repo);
    log = new AuditLogService(repo, NO_AUDIT);
  });
  afterAll(async () => {
    await a?.onApplicationShutdown();
    await b?.onApplicationShutdown();
    await repo?.close();
    await env?.teardown();
  });

  const rows = (organizationId: string) =>
    env.prisma.auditEntry.findMany({ where: { organizationId }, orderBy: { seq: 'asc' }, select: { id: true, seq: true, prevHash: true, hash: true } });

  it('two writers interleaving 200 entries over two organizations leave each one chain, gapless and valid', async () => {
    for (let i = 0; i < 100; i++) {
      const recorder = i % 2 ? a : b;
      recorder.record({ organizationId: i % 3 ? acme.organization.id : other.organization.id, action: 'link.created', targetId: `l${i}`, changes: { n: i } });
      (i % 2 ? b : a).record({ organizationId: acme.organization.id, action: 'project.updated', targetId: `p${i}`, actor: { type: 'system', id: null } });
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all([a.flush(), b.flush()]);
    const chain = await rows(acme.organization.id);
    expect(chain.map((r) => Number(r.seq))).toEqual(chain.map((_r, i) => i + 1));
    expect(chain[0].prevHash).toBe('0'.repeat(64));
    for (let i = 1; i < chain.length; i++) expect(chain[i].prevHash).toBe(chain[i - 1].hash);
    expect(await log.verify(acme.organization.id)).toEqual({ valid: true, entries: chain.length, firstBrokenId: null });
    expect(await log.verify(other.organization.id)).toEqual({ valid: true, entries: 34, firstBrokenId: null });
    expect(chain.length).toBe(166);
  });

  it('a row altered in the database is named by verification; restored, the chain holds again', async () => {
    const chain = await rows(acme.organization.id);
    const victim = chain[40];
    const before = await env.prisma.auditEntry.findUniqueOrThrow({ where: { id: victim.id } });
    await env.prisma.$executeRawUnsafe(`UPDATE audit_entries SET changes = '{"n": 999}' WHERE id = $1::uuid`, victim.id);
    expect(await log.verify(acme.organization.id)).toEqual({ valid: false, entries: chain.length, firstBrokenId: victim.id });
    // Re-hashing the altered row does not help: its successor no longer links to it.
    await env.prisma.$executeRawUnsafe(`UPDATE audit_entries SET hash = repeat('a', 64) WHERE id = $1::uuid`, victim.id);
    expect((await log.verify(acme.organization.id)).firstBrokenId).toBe(victim.id);
    await env.prisma.$executeRawUnsafe(
      `UPDATE audit_entries SET changes = $2::jsonb, hash = $3 WHERE id = $1::uuid`,
      victim.id,
      before.changes === null ? null : JSON.stringify(before.changes),
      before.hash,
    );
    expect((await log.verify(acme.organization.id)).valid).toBe(true);
    // Another organization's chain never notices.
    expect((await log.verify(other.organization.id)).valid).toBe(true);
  });

  it('a row deleted from the middle breaks the chain at the next one', async () => {
    const chain = await rows(other.organization.id);
    await env.prisma.auditEntry.delete({ where: { id: chain[10].id } });
    expect(await log.verify(other.organization.id)).toEqual({ valid: false, entries: chain.length - 1, firstBrokenId: chain[11].id });
  });

  it('reads are scoped to the organization, newest first, with cursor pages and filters', async () => {
    const first = await log.list(acme.organization.id, { limit: 50 });
    expect(first.entries).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await log.list(acme.organization.id, { limit: 50, cursor: first.nextCursor! });
    expect(second.entries[0].createdAt <= first.entries[49].createdAt).toBe(true);
    expect(new Set([...first.entries, ...second.entries].map((e) => e.id)).size).toBe(100);
    const projects = await log.list(acme.organization.id, { action: 'project.updated', limit: 200 });
    expect(projects.entries).toHaveLength(100);
    expect(projects.entries[0].actor).toEqual({ type: 'system', id: null, name: 'system' });
    const one = await log.list(acme.organization.id, { targetId: 'l1', limit: 10 });
    expect(one.entries.map((e) => [e.action, e.targetType, e.targetId, e.changes])).toEqual([['link.created', 'link', 'l1', { n: 1 }]]);
    expect((await log.list(other.organization.id, { targetId: 'l1', limit: 10 })).entries).toEqual([]);
    // from and to bound the instants, inclusively.
    const newest = first.entries[0].createdAt;
    expect((await log.list(acme.organization.id, { from: newest, limit: 200 })).entries.every((e) => e.createdAt >= newest)).toBe(true);
    expect((await log.list(acme.organization.id, { from: newest, limit: 200 })).entries.map((e) => e.id)).toContain(first.entries[0].id);
    expect((await log.list(acme.organization.id, { to: '2000-01-01T00:00:00Z', limit: 10 })).entries).toEqual([]);
    expect((await log.list(acme.organization.id, { from: new Date(Date.now() + 60_000).toISOString(), limit: 10 })).entries).toEqual([]);
  });

  it('retention deletes from the start of the chain by plan, and what is left still verifies', async () => {
    const now = new Date();
    const chain = await rows(acme.organization.id);
    // The first ten entries are 8 days old: past FREE's 7 days (their hashes no longer matter: they go).
    await env.prisma.$executeRawUnsafe(
      `UPDATE audit_entries SET created_at = now() - interval '8 days' WHERE organization_id = $1::uuid AND seq <= 10`,
      acme.organization.id,
    );
    const result = await new AuditRetentionService(repo).prune(now);
    expect(result.deleted).toBe(10);
    expect(await log.verify(acme.organization.id)).toEqual({ valid: true, entries: chain.length - 10, firstBrokenId: null });
    // On PRO the same age is kept.
    await env.prisma.organization.update({ where: { id: acme.organization.id }, data: { tier: 'PRO' } });
    await env.prisma.$executeRawUnsafe(`UPDATE audit_entries SET created_at = now() - interval '8 days' WHERE organization_id = $1::uuid AND seq <= 12`, acme.organization.id);
    expect((await new AuditRetentionService(repo).prune(now)).deleted).toBe(0);
  });

  it('retention keeps 7 days on FREE, 90 on PRO and a year on BUSINESS and UNLIMITED', async () => {
    const ages = [400, 366, 364, 91, 89, 8, 6];
    const orgs: Record<string, string> = {};
    for (const tier of ['FREE', 'PRO', 'BUSINESS', 'UNLIMITED'] as const) orgs[tier] = (await seedOrganization(env, { tier })).organization.id;
    for (const id of Object.values(orgs)) for (const age of ages) a.record({ organizationId: id, action: 'link.created', targetId: `age-${age}`, changes: { age } });
    await a.flush();
    // Aged in the database, oldest first in the chain as time would have it.
    await env.prisma.$executeRawUnsafe(
      `UPDATE audit_entries SET created_at = now() - make_interval(days => (changes->>'age')::int) WHERE organization_id = ANY($1::uuid[])`,
      Object.values(orgs),
    );
    await new AuditRetentionService(repo).prune(new Date());
    const kept = async (organizationId: string) =>
      (await env.prisma.auditEntry.findMany({ where: { organizationId }, orderBy: { seq: 'asc' } })).map((e) => (e.changes as { age: number }).age);
    expect(await kept(orgs.FREE)).toEqual([6]);
    expect(await kept(orgs.PRO)).toEqual([89, 8, 6]);
    expect(await kept(orgs.BUSINESS)).toEqual([364, 91, 89, 8, 6]);
    expect(await kept(orgs.UNLIMITED)).toEqual([364, 91, 89, 8, 6]);
  });
});
