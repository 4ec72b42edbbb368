import { INestApplicationContext } from '@nestjs/common';
import { Role, Tier } from '@dl/platform/db';
import { closeAll, errorBodyOf, ReportFixtures, serviceEnv, TestEnv } from '@dl/testing';
import { addMonths, formatPeriod, periodOf } from './period';
import { ReportsModule } from './reports.module';
import { ReportsService } from './reports.service';

describe(ReportsService.name, () => {
  let env: TestEnv, app: INestApplicationContext, reports: ReportsService, fx: ReportFixtures, acme: string, other: string;
  // The last finished month, on the real clock.
  const last = addMonths(periodOf(new Date()), -1);
  const lastKey = formatPeriod(last);
  const day = `${lastKey}-10`;
  const owner = (organizationId: string) => ({ organizationId, role: Role.OWNER });

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([ReportsModule]));
    reports = app.get(ReportsService);
    fx = new ReportFixtures(env.prisma);
    const createdAt = new Date(Date.UTC(last.year, last.month - 3, 1));
    acme = (await fx.organization({ name: 'Acme Inc', tier: Tier.PRO, createdAt })).id;
    other = (await fx.organization({ name: 'Other Ltd', tier: Tier.PRO, createdAt })).id;
    const mine = await fx.link(acme, { shortCode: 'acme0001', title: 'Spring', createdAt });
    const theirs = await fx.link(other, { shortCode: 'othr0001', title: 'Theirs', createdAt });
    await fx.rollup(acme, mine.id, day, 120);
    await fx.rollup(other, theirs.id, day, 999);
  });
  afterAll(() => closeAll(app, env));

  it('builds and stores the last finished month once, and lists it after the live month', async () => {
    const report = await reports.get(owner(acme), lastKey, false);
    expect(report.organization).toMatchObject({ id: acme, name: 'Acme Inc' });
    expect(report.kpis.clicks.value).toBe(120);
    expect(report.daily.find((d) => d.day === day)).toEqual({ day, clicks: 120 });
    const { reports: listed } = await reports.list(owner(acme));
    expect(listed.map((r) => [r.period, r.live])).toEqual([
      [formatPeriod(periodOf(new Date())), true],
      [lastKey, false],
    ]);
    // Stored: a second read answers the same report.
    expect(await reports.get(owner(acme), lastKey, false)).toEqual(report);
  });

  it("counts only the caller's organization, and lists only its stored reports", async () => {
    const theirs = await reports.get(owner(other), lastKey, false);
    expect(theirs.organization.id).toBe(other);
    expect(theirs.kpis.clicks.value).toBe(999);
    expect((await reports.get(owner(acme), lastKey, false)).kpis.clicks.value).toBe(120);
    const fresh = (await fx.organization({ name: 'Fresh', createdAt: new Date(Date.UTC(last.year, last.month - 3, 1)) })).id;
    expect((await reports.list(owner(fresh))).reports.map((r) => r.live)).toEqual([true]);
  });

  it('refuses a malformed period, and a regeneration by a non-owner, with the exact error', async () => {
    expect(await errorBodyOf(reports.get(owner(acme), '2026-13', false))).toEqual({
      error: 'INVALID_PERIOD',
      message: 'Period must be a month in the format YYYY-MM',
      statusCode: 400,
    });
    expect(await errorBodyOf(reports.get({ organizationId: acme, role: Role.ADMIN }, lastKey, true))).toEqual({
      error: 'INSUFFICIENT_ROLE',
      message: 'Only the workspace owner can regenerate a report',
      statusCode: 403,
    });
  });
});
