import { Logger } from '@nestjs/common';
import { PrismaReadService, Role } from '@dl/platform/db';
import { Clock, ReportBuilder, ReportDataRepository, ReportsRepository, ReportsService } from '@dl/reports';
import { closeAll, createTestEnv, runCli, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';

describe('npm run cli -- demo:seed', () => {
  let env: TestEnv, org: SeededOrganization;
  let run: { code: number; stdout: string; stderr: string };

  const cli = (...args: string[]) => runCli(env.config, args, 90_000);

  beforeAll(async () => {
    Logger.overrideLogger(false);
    env = await createTestEnv();
    org = await seedOrganization(env, { name: 'Northwind Outfitters' });
    run = await cli('demo:seed', org.organization.slug, '--months', '1', '--links', '6', '--clicks-per-day', '40');
  }, 120_000);

  afterAll(() => closeAll(env));

  it('prints {links, clicks, installs, events} and shows progress on stderr', async () => {
    expect(run.stderr).toContain('clicks [');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['links', 'clicks', 'installs', 'events']);
    expect(out.links).toBe(6);
    const clicks = await env.prisma.click.count({ where: { organizationId: org.organization.id } });
    expect(out.clicks).toBe(clicks);
    expect(clicks).toBeGreaterThan(40 * 28 * 0.6);
    expect(out.installs).toBe(await env.prisma.install.count({ where: { organizationId: org.organization.id } }));
    expect(out.events).toBe(await env.prisma.inAppEvent.count({ where: { organizationId: org.organization.id } }));
    expect(out.installs).toBeGreaterThan(0);
    expect(out.events).toBeGreaterThan(out.installs);
  });

  it('the clicks went through the real enrichment and rollups (bots only under "bot")', async () => {
    const id = org.organization.id;
    const [t] = await env.prisma.$queryRaw<Array<{ nonbot: number; bots: number; total: number; bot: number; countries: number; sources: number; utm: number; cities: number }>>`
      SELECT (SELECT COUNT(*)::int FROM clicks WHERE organization_id = ${id}::uuid AND NOT is_bot) AS nonbot,
        (SELECT COUNT(*)::int FROM clicks WHERE organization_id = ${id}::uuid AND is_bot) AS bots,
        (SELECT COALESCE(SUM(clicks), 0)::int FROM click_rollups WHERE organization_id = ${id}::uuid AND dimension = 'total') AS total,
        (SELECT COALESCE(SUM(clicks), 0)::int FROM click_rollups WHERE organization_id = ${id}::uuid AND dimension = 'bot') AS bot,
        (SELECT COUNT(DISTINCT country_code)::int FROM clicks WHERE organization_id = ${id}::uuid AND country_code IS NOT NULL) AS countries,
        (SELECT COUNT(DISTINCT value)::int FROM click_rollups WHERE organization_id = ${id}::uuid AND dimension = 'source') AS sources,
        (SELECT COUNT(*)::int FROM clicks WHERE organization_id = ${id}::uuid AND utm_source IS NOT NULL) AS utm,
        (SELECT COUNT(DISTINCT city)::int FROM clicks WHERE organization_id = ${id}::uuid) AS cities`;
    expect(t.total).toBe(t.nonbot);
    expect(t.bot).toBe(t.bots);
    expect(t.countries).toBeGreaterThanOrEqual(6);
    expect(t.cities).toBeGreaterThan(10);
    expect(t.sources).toBeGreaterThanOrEqual(4);
    expect(t.utm).toBeGreaterThan(0);
    const devices = await env.prisma.click.groupBy({ by: ['deviceType'], where: { organizationId: id } });
    expect(devices.map((d) => d.deviceType).sort()).toEqual(expect.arrayContaining(['desktop', 'mobile']));
  });

  it('moves the organization back to the start of the range, and the previous month reports every stream', async () => {
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const row = await env.prisma.organization.findUniqueOrThrow({ where: { id: org.organization.id } });
    expect(row.createdAt.toISOString()).toBe(start.toISOString());
    const repo = new ReportsRepository(env.prisma);
    const reports = new ReportsService(repo, new ReportBuilder(new ReportDataRepository(PrismaReadService.create(env.config, env.prisma)), env.config), new Clock());
    const period = start.toISOString().slice(0, 7);
    const report = await reports.get({ organizationId: org.organization.id, role: Role.OWNER }, period, false);
    expect(report.kpis.clicks.value).toBeGreaterThan(0);
    expect(report.topLinks.length).toBeGreaterThan(0);
    expect(report.installs).not.toBeNull();
    expect(report.events?.revenue.length).toBeGreaterThan(0);
    expect(report.pixel?.pageviews.value).toBeGreaterThan(0);
  });

  it('refuses bad options with usage (exit 2)', async () => {
    const bad = await cli('demo:seed', org.organization.slug, '--months', '0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--months must be an integer between 1 and 36');
  });
});
