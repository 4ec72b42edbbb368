import { PrismaReadService, Tier } from '@dl/platform/db';
import { createTestEnv, ReportFixtures, TestEnv } from '@dl/testing';
import { ReportDataRepository } from './report-data.repository';

const at = (iso: string) => new Date(iso);
const NOV = { start: at('2026-11-01T00:00:00Z'), end: at('2026-12-01T00:00:00Z') };
const OCT = { start: at('2026-10-01T00:00:00Z'), end: at('2026-11-01T00:00:00Z') };

/**
 * click_monthly_visitors is kept by triggers on click_daily_visitors: whatever inserts or deletes
 * daily rows (the click pipeline's ON CONFLICT DO NOTHING, link deletion, retention), a month's
 * count of rows must stay the DISTINCT count over that month's daily rows.
 */
describe('monthly visitors (click_monthly_visitors)', () => {
  let env: TestEnv;
  let fx: ReportFixtures;
  let repo: ReportDataRepository;
  let orgId: string;
  let other: string;
  let l1: string;
  let l2: string;

  const both = async (organizationId: string, w: { start: Date; end: Date }) => [
    await repo.monthVisitors(organizationId, w.start),
    await repo.uniqueVisitors(organizationId, w),
  ];

  beforeAll(async () => {
    env = await createTestEnv();
    fx = new ReportFixtures(env.prisma);
    repo = new ReportDataRepository(PrismaReadService.create(env.config, env.prisma));
    orgId = (await fx.organization({ name: 'Visitors', tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') })).id;
    other = (await fx.organization({ name: 'Other', tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') })).id;
    l1 = (await fx.link(orgId, { createdAt: at('2026-01-01T00:00:00Z') })).id;
    l2 = (await fx.link(orgId, { createdAt: at('2026-01-01T00:00:00Z') })).id;
    const o1 = (await fx.link(other, { createdAt: at('2026-01-01T00:00:00Z') })).id;
    for (const [link, day, hash] of [
      [l1, '2026-11-03', 'h1'],
      [l1, '2026-11-04', 'h1'],
      [l1, '2026-11-05', 'h2'],
      [l2, '2026-11-03', 'h1'],
      [l2, '2026-11-30', 'h3'],
      [l1, '2026-10-31', 'h4'],
      [l1, '2026-12-01', 'h5'],
    ]) {
      await fx.visitor(orgId, link, day, hash);
    }
    await fx.visitor(other, o1, '2026-11-03', 'h1');
  });

  afterAll(() => env.teardown());

  it('counts each visitor of the month once, per organization', async () => {
    expect(await both(orgId, NOV)).toEqual([3, 3]);
    expect(await both(orgId, OCT)).toEqual([1, 1]);
    expect(await both(other, NOV)).toEqual([1, 1]);
  });

  it('a daily row inserted again (ON CONFLICT DO NOTHING) counts nothing twice', async () => {
    await env.prisma.$executeRaw`
      INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
      VALUES (${orgId}::uuid, ${l1}::uuid, '2026-11-05', 'h2'), (${orgId}::uuid, ${l1}::uuid, '2026-11-06', 'h2')
      ON CONFLICT DO NOTHING`;
    expect(await both(orgId, NOV)).toEqual([3, 3]);
    // h2 is now held by two daily rows: removing one keeps the visitor.
    await env.prisma.$executeRaw`DELETE FROM click_daily_visitors WHERE link_id = ${l1}::uuid AND day = '2026-11-06'`;
    expect(await both(orgId, NOV)).toEqual([3, 3]);
  });

  it('deleting a link’s daily rows removes only the visitors no other link saw that month', async () => {
    await env.prisma.$executeRaw`
      WITH v AS (DELETE FROM click_daily_visitors WHERE link_id = ${l2}::uuid RETURNING 1) SELECT count(*) FROM v`;
    // h3 was only on l2; h1 is still on l1.
    expect(await both(orgId, NOV)).toEqual([2, 2]);
    expect(await both(other, NOV)).toEqual([1, 1]);
  });

  it('retention deleting old days leaves the month consistent', async () => {
    await env.prisma.$executeRaw`DELETE FROM click_daily_visitors WHERE organization_id = ${orgId}::uuid AND day < '2026-11-05'`;
    expect(await both(orgId, OCT)).toEqual([0, 0]);
    expect(await both(orgId, NOV)).toEqual([1, 1]);
    const [{ n }] = await env.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM click_monthly_visitors WHERE organization_id = ${orgId}::uuid AND link_days <= 0`;
    expect(n).toBe(0);
  });
});
