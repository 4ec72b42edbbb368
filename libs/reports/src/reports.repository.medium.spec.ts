import { Role, Tier } from '@dl/platform/db';
import { createTestEnv, ReportFixtures, TestEnv } from '@dl/testing';
import { ReportsRepository } from './reports.repository';

const at = (iso: string) => new Date(iso);

describe(ReportsRepository.name, () => {
  let env: TestEnv;
  let repo: ReportsRepository;
  let acme: string;
  let other: string;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new ReportsRepository(env.prisma);
    const fx = new ReportFixtures(env.prisma);
    acme = (await fx.organization({ name: 'Acme', tier: Tier.PRO, createdAt: at('2030-01-10T00:00:00Z') })).id;
    other = (await fx.organization({ name: 'Later', createdAt: at('2030-03-01T00:00:00Z') })).id;
    await fx.member(acme, Role.OWNER, 'owner@acme.test', 'Olive');
    await fx.member(acme, Role.VIEWER, 'viewer@acme.test', 'Vic');
    await fx.member(acme, Role.ADMIN, 'admin@acme.test', 'Ada');
  });
  afterAll(() => env?.teardown());

  it('finds organizations, the ones that existed before a date, and the owners and admins who receive the report', async () => {
    expect(await repo.findOrganization(acme)).toEqual({ id: acme, name: 'Acme', slug: expect.stringMatching(/^org-/), tier: 'PRO', createdAt: at('2030-01-10T00:00:00Z') });
    const before = await repo.organizationIdsCreatedBefore(at('2030-02-01T00:00:00Z'));
    expect(before).toContain(acme);
    expect(before).not.toContain(other);
    expect(await repo.recipients(acme)).toEqual([
      { email: 'owner@acme.test', name: 'Olive', role: 'OWNER' },
      { email: 'admin@acme.test', name: 'Ada', role: 'ADMIN' },
    ]);
    // A suspended organization gets no scheduled email (decisions §22).
    await env.prisma.organization.update({ where: { id: acme }, data: { suspendedAt: new Date() } });
    expect(await repo.recipients(acme)).toEqual([]);
    await env.prisma.organization.update({ where: { id: acme }, data: { suspendedAt: null } });
    expect(await repo.recipients(acme)).toHaveLength(2);
  });

  it('stores a report once (the first writer wins), replaces it on regeneration keeping emailed_at, and claims its email once', async () => {
    expect(await repo.insertIfAbsent(acme, '2030-01', { v: 1 }, at('2030-02-01T00:30:00Z'))).toBe(true);
    expect(await repo.insertIfAbsent(acme, '2030-01', { v: 2 }, at('2030-02-01T00:31:00Z'))).toBe(false);
    expect(await repo.findStored(acme, '2030-01')).toEqual({ period: '2030-01', body: { v: 1 }, generatedAt: at('2030-02-01T00:30:00Z'), emailedAt: null });

    let sent = 0;
    expect(await repo.withEmailClaim(acme, '2030-01', async () => void sent++)).toBe('sent');
    expect(await repo.withEmailClaim(acme, '2030-01', async () => void sent++)).toBe('already-sent');
    expect(sent).toBe(1);
    await repo.upsert(acme, '2030-01', { v: 3 }, at('2030-02-02T00:00:00Z'));
    expect(await repo.findStored(acme, '2030-01')).toMatchObject({ body: { v: 3 }, generatedAt: at('2030-02-02T00:00:00Z'), emailedAt: expect.any(Date) });
    await repo.upsert(acme, '2030-02', { v: 4 }, at('2030-03-01T00:00:00Z'));
    expect(await repo.listStored(acme, '2030-01')).toEqual([
      { period: '2030-02', generatedAt: at('2030-03-01T00:00:00Z') },
      { period: '2030-01', generatedAt: at('2030-02-02T00:00:00Z') },
    ]);
    expect(await repo.listStored(acme, '2030-02')).toHaveLength(1);
  });

  it("another organization's stored report answers as missing", async () => {
    expect(await repo.findStored(other, '2030-01')).toBeNull();
    expect(await repo.listStored(other, '2000-01')).toEqual([]);
    expect(await repo.withEmailClaim(other, '2030-01', async () => undefined)).toBe('missing');
    expect(await repo.recipients(other)).toEqual([]);
  });

  it('a failed email leaves the report unclaimed: the error is the sender\'s and the retry sends', async () => {
    await repo.insertIfAbsent(acme, '2030-03', {}, at('2030-04-01T00:00:00Z'));
    await expect(repo.withEmailClaim(acme, '2030-03', async () => Promise.reject(new Error('SMTP 451 try again later')))).rejects.toThrow('SMTP 451 try again later');
    expect((await repo.findStored(acme, '2030-03'))?.emailedAt).toBeNull();
    expect(await repo.withEmailClaim(acme, '2030-03', async () => undefined)).toBe('sent');
  });
});
