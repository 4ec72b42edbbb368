import { sqlState } from '@dl/platform/db';
import { rejectionOf, ReportFixtures, useRepository } from '@dl/testing';
import { UsageRepository } from './usage.repository';

describe(UsageRepository.name, () => {
  const t = useRepository((prisma) => new UsageRepository(prisma));

  it("counts the organization's links, live keys and this month's clicks, nothing of another organization", async () => {
    const fx = new ReportFixtures(t.env.prisma);
    const org = t.acme.organization.id;
    const a = await fx.link(org, { createdAt: new Date('2030-03-01T00:00:00Z') });
    await fx.link(org, { createdAt: new Date('2030-03-02T00:00:00Z') });
    await fx.rollup(org, a.id, '2030-03-10', 7);
    await fx.rollup(org, a.id, '2030-03-11', 5);
    await fx.rollup(org, a.id, '2030-02-28', 100); // last month
    await fx.rollup(org, a.id, '2030-03-11', 9, 'country', 'GB'); // not a total
    const theirs = await fx.link(t.other.organization.id, { createdAt: new Date('2030-03-01T00:00:00Z') });
    await fx.rollup(t.other.organization.id, theirs.id, '2030-03-10', 50);

    expect(await t.repo.counts(org, new Date('2030-03-01T00:00:00Z'))).toEqual({ links: 2, apiKeys: 1, clicks: 12 });
    await t.env.prisma.apiKey.update({ where: { id: t.acme.owner.apiKeyId }, data: { revokedAt: new Date() } });
    expect(await t.repo.counts(org, new Date('2030-03-01T00:00:00Z'))).toEqual({ links: 2, apiKeys: 0, clicks: 12 });
    expect(await t.repo.counts(t.other.organization.id, new Date('2030-03-01T00:00:00Z'))).toEqual({ links: 1, apiKeys: 1, clicks: 50 });
  });

  it('an organization without anything counts zeros (no clicks is 0, not null)', async () => {
    expect(await t.repo.counts('00000000-0000-4000-8000-000000000000', new Date())).toEqual({ links: 0, apiKeys: 0, clicks: 0 });
  });

  it('an organization id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.counts('acme', new Date())))).toBe('22P02');
  });
});
