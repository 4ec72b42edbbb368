import { Role, Tier } from '@dl/platform/db';
import { ReportFixtures, useTestEnv } from '@dl/testing';
import { ReportsRepository } from './reports.repository';

const at = (iso: string) => new Date(iso);

describe(ReportsRepository.name, () => {
  const t = useTestEnv({}, async (env) => {
    const fx = new ReportFixtures(env.prisma);
    const acme = (await fx.organization({ name: 'Acme', tier: Tier.PRO, createdAt: at('2030-01-10T00:00:00Z') })).id;
    const other = (await fx.organization({ name: 'Later', createdAt: at('2030-03-01T00:00:00Z') })).id;
    await fx.member(acme, Role.OWNER, 'owner@acme.test', 'Olive');
    await fx.member(acme, Role.VIEWER, 'viewer@acme.test', 'Vic');
    await fx.member(acme, Role.ADMIN, 'admin@acme.test', 'Ada');
    return { repo: new ReportsRepository(env.prisma), acme, other };
  });

  it('finds organizations, the ones that existed before a date, and the owners and admins who receive the report', async () => {
    expect(await t.repo.findOrganization(t.acme)).toEqual({ id: t.acme, name: 'Acme', slug: expect.stringMatching(/^org-/), tier: 'PRO', createdAt: at('2030-01-10T00:00:00Z') });
    const before = await t.repo.organizationIdsCreatedBefore(at('2030-02-01T00:00:00Z'));
    expect(before).toContain(t.acme);
    expect(before).not.toContain(t.other);
    expect(await t.repo.recipients(t.acme)).toEqual([
      { email: 'owner@acme.test', name: 'Olive', role: 'OWNER' },
      { email: 'admin@acme.test', name: 'Ada', role: 'ADMIN' },
    ]);
    // A suspended organization gets no scheduled email (decisions §22).
    await t.env.prisma.organization.update({ where: { id: t.acme }, data: { suspendedAt: new Date() } });
    expect(await t.repo.recipients(t.acme)).toEqual([]);
    await t.env.prisma.organization.update({ where: { id: t.acme }, data: { suspendedAt: null } });
    expect(await t.repo.recipients(t.acme)).toHaveLength(2);
  });

  it('stores a report once (the first writer wins), replaces it on regeneration keeping emailed_at, and claims its email once', async () => {
    expect(await t.repo.insertIfAbsent(t.acme, '2030-01', { v: 1 }, at('2030-02-01T00:30:00Z'))).toBe(true);
    expect(await t.repo.insertIfAbsent(t.acme, '2030-01', { v: 2 }, at('2030-02-01T00:31:00Z'))).toBe(false);
    expect(await t.repo.findStored(t.acme, '2030-01')).toEqual({ period: '2030-01', body: { v: 1 }, generatedAt: at('2030-02-01T00:30:00Z'), emailedAt: null });

    let sent = 0;
    expect(await t.repo.withEmailClaim(t.acme, '2030-01', async () => void sent++)).toBe('sent');
    expect(await t.repo.withEmailClaim(t.acme, '2030-01', async () => void sent++)).toBe('already-sent');
    expect(sent).toBe(1);
    await t.repo.upsert(t.acme, '2030-01', { v: 3 }, at('2030-02-02T00:00:00Z'));
    expect(await t.repo.findStored(t.acme, '2030-01')).toMatchObject({ body: { v: 3 }, generatedAt: at('2030-02-02T00:00:00Z'), emailedAt: expect.any(Date) });
    await t.repo.upsert(t.acme, '2030-02', { v: 4 }, at('2030-03-01T00:00:00Z'));
    expect(await t.repo.listStored(t.acme, '2030-01')).toEqual([
      { period: '2030-02', generatedAt: at('2030-03-01T00:00:00Z') },
      { period: '2030-01', generatedAt: at('2030-02-02T00:00:00Z') },
    ]);
    expect(await t.repo.listStored(t.acme, '2030-02')).toHaveLength(1);
  });

  it("another organization's stored report answers as missing", async () => {
    expect(await t.repo.findStored(t.other, '2030-01')).toBeNull();
    expect(await t.repo.listStored(t.other, '2000-01')).toEqual([]);
    expect(await t.repo.withEmailClaim(t.other, '2030-01', async () => undefined)).toBe('missing');
    expect(await t.repo.recipients(t.other)).toEqual([]);
  });

  it('a failed email leaves the report unclaimed: the error is the sender\'s and the retry sends', async () => {
    await t.repo.insertIfAbsent(t.acme, '2030-03', {}, at('2030-04-01T00:00:00Z'));
    await expect(t.repo.withEmailClaim(t.acme, '2030-03', async () => Promise.reject(new Error('SMTP 451 try again later')))).rejects.toThrow('SMTP 451 try again later');
    expect((await t.repo.findStored(t.acme, '2030-03'))?.emailedAt).toBeNull();
    expect(await t.repo.withEmailClaim(t.acme, '2030-03', async () => undefined)).toBe('sent');
  });
});
