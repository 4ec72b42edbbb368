import { Queue } from 'bullmq';
import { AuditRecorder } from '@dl/audit';
import { ClickPipeline } from '@dl/clicks';
import { createWorkerApp } from '@dl/apps/worker';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, closeAll, createTestEnv, rawClick, runJob, RunningApp, startApp, TestEnv } from '@dl/testing';
import { AUDIT_PRUNE_SCHEDULE, CLICKS_PARTITIONS_SCHEDULE, CLICKS_PRUNE_SCHEDULE } from './maintenance.processor';

const DAY = 24 * 3600 * 1000;

describe('worker: raw click and audit log retention per plan', () => {
  let env: TestEnv, worker: RunningApp, maintenance: Queue, fx: ClickFixtures;

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_SCHEDULES_ENABLED: 'true' });
    fx = new ClickFixtures(env.prisma);
    worker = await startApp(createWorkerApp, env.config);
    maintenance = new Queue(Queues.maintenance, bullOptions(env.config));
  });

  afterAll(() => closeAll(maintenance, worker, env));

  const run = (name: 'clicks.prune' | 'audit.prune', data: object) => runJob(maintenance, name, data, 20_000);

  it('registers the daily prune schedule when schedules are enabled', async () => {
    const schedulers = await maintenance.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.pattern])).toContainEqual([
      CLICKS_PRUNE_SCHEDULE.id,
      'clicks.prune',
      CLICKS_PRUNE_SCHEDULE.pattern,
    ]);
    expect(schedulers.map((s) => s.key)).toContain(CLICKS_PARTITIONS_SCHEDULE.id);
    expect(schedulers.map((s) => [s.key, s.name, s.pattern])).toContainEqual([AUDIT_PRUNE_SCHEDULE.id, 'audit.prune', AUDIT_PRUNE_SCHEDULE.pattern]);
  });

  it('drops the monthly partitions past every plan, deletes what shorter plans no longer keep in chunks; rollups stay', async () => {
    const now = new Date('2027-06-01T12:00:00.000Z');
    // The month of the 1,200-day-old clicks has its partition (the migration makes 36 months
    // back from the day it ran; made here so the test does not depend on that day).
    await env.prisma.$queryRaw`SELECT dl_clicks_ensure_partition('2024-02-01'::date)`;
    const ages = [10, 40, 400, 1200];
    const orgs = {
      FREE: await fx.organization(Tier.FREE),
      PRO: await fx.organization(Tier.PRO),
      BUSINESS: await fx.organization(Tier.BUSINESS),
      UNLIMITED: await fx.organization(Tier.UNLIMITED),
    };
    const links: Record<string, string> = {};
    const pipeline = worker.app.get(ClickPipeline);
    for (const [tier, org] of Object.entries(orgs)) {
      const link = await fx.link(org.id);
      links[tier] = link.id;
      // Three clicks per age, through the click pipeline.
      await pipeline.store(
        ages.flatMap((age) =>
          [0, 1, 2].map((i) =>
            rawClick({ id: link.id, organizationId: org.id }, { clickedAt: new Date(now.getTime() - age * DAY - i * 1000).toISOString(), ip: `198.51.100.${i}` }),
          ),
        ),
      );
    }
    const rollupsBefore = await env.prisma.clickRollup.aggregate({ _sum: { clicks: true } });

    const result = await run('clicks.prune', { now: now.toISOString() });

    const remaining = async (tier: string) =>
      (
        await env.prisma.$queryRaw<Array<{ age: number }>>`
          SELECT DISTINCT round(extract(epoch FROM (${now}::timestamptz - clicked_at)) / 86400)::int AS age
          FROM clicks WHERE link_id = ${links[tier]}::uuid ORDER BY age`
      ).map((r) => r.age);
    expect(await remaining('FREE')).toEqual([10]);
    expect(await remaining('PRO')).toEqual([10, 40]);
    expect(await remaining('BUSINESS')).toEqual([10, 40, 400]);
    expect(await remaining('UNLIMITED')).toEqual([10, 40, 400]);
    // Past 1,095 days (the longest plan) whole months are dropped: the 1,200-day-old clicks of
    // every plan go with clicks_p202402, no row deleted. Row deletes remain for FREE (40 and 400
    // days) and PRO (400 days). Visitor days are rows of their own table, deleted per plan.
    const { partitionsDropped, ...counts } = result as { partitionsDropped: string[]; clicks: number; dailyVisitors: number };
    expect(counts).toEqual({ clicks: 2 * 3 + 1 * 3, dailyVisitors: 3 * 3 + 2 * 3 + 1 * 3 + 1 * 3 });
    expect(partitionsDropped).toContain('clicks_p202402');
    // Only months whose last day is more than 1,095 days before `now` (2024-06-02).
    expect(partitionsDropped.every((p) => p <= 'clicks_p202405')).toBe(true);
    const left = await env.prisma.$queryRaw<Array<{ name: string }>>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'clicks'::regclass AND c.relname ~ '^clicks_p' ORDER BY 1 LIMIT 1`;
    expect(left[0].name >= 'clicks_p202406').toBe(true);
    const rollupsAfter = await env.prisma.clickRollup.aggregate({ _sum: { clicks: true } });
    expect(rollupsAfter._sum.clicks).toBe(rollupsBefore._sum.clicks);

    // A second run finds nothing more to delete.
    expect(await run('clicks.prune', { now: now.toISOString() })).toEqual({ clicks: 0, dailyVisitors: 0, partitionsDropped: [] });
  });

  it('audit.prune deletes the audit entries past the plan (FREE: 7 days) and keeps the rest', async () => {
    const org = await fx.organization(Tier.FREE);
    const recorder = worker.app.get(AuditRecorder);
    for (const targetId of ['old', 'recent']) recorder.record({ organizationId: org.id, action: 'link.created', targetId });
    await recorder.flush();
    await env.prisma.auditEntry.updateMany({ where: { organizationId: org.id, targetId: 'old' }, data: { createdAt: new Date(Date.now() - 8 * DAY) } });
    expect(await run('audit.prune', { now: new Date().toISOString() })).toEqual({ organizations: 1, deleted: 1 });
    expect((await env.prisma.auditEntry.findMany({ where: { organizationId: org.id } })).map((e) => [e.targetId, e.actorType])).toEqual([['recent', 'system']]);
  });
});
