import { Queue } from 'bullmq';
import { ClickPipeline } from '@dl/clicks';
import { createWorkerApp } from '@dl/apps/worker';
import { clickIdTime, newClickId } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, closeAll, createTestEnv, rawClick, runJob, RunningApp, startApp, TestEnv } from '@dl/testing';
import { CLICKS_PARTITIONS_SCHEDULE } from './maintenance.processor';

/** The monthly partitions of `clicks`: replays stay exact across a month boundary, the worker makes months ahead. */
describe('worker: partitioned clicks', () => {
  let env: TestEnv, worker: RunningApp, maintenance: Queue, fx: ClickFixtures;

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_SCHEDULES_ENABLED: 'true' });
    fx = new ClickFixtures(env.prisma);
    worker = await startApp(createWorkerApp, env.config);
    maintenance = new Queue(Queues.maintenance, bullOptions(env.config));
  });

  afterAll(() => closeAll(maintenance, worker, env));

  const run = (name: 'clicks.partitions' | 'clicks.prune', data: object) => runJob(maintenance, name, data);
  const partitionOf = async (id: string) =>
    (await env.prisma.$queryRaw<Array<{ part: string }>>`SELECT tableoid::regclass::text AS part FROM clicks WHERE id = ${id}::uuid`).map((r) => r.part);

  it('schedules the partitions job daily and runs it once at start', async () => {
    const schedulers = await maintenance.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.pattern])).toContainEqual([CLICKS_PARTITIONS_SCHEDULE.id, 'clicks.partitions', CLICKS_PARTITIONS_SCHEDULE.pattern]);
    const boot = await maintenance.getJob(`clicks.partitions.boot.${new Date().toISOString().slice(0, 10)}`);
    expect(boot?.name).toBe('clicks.partitions');
  });

  it('a replayed batch across a month boundary stores and counts every click once, each in its month', async () => {
    const org = await fx.organization(Tier.PRO);
    const link = await fx.link(org.id);
    const now = new Date();
    const boundary = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const clicks = [boundary - 1, boundary, boundary + 1].map((t, i) =>
      rawClick({ id: link.id, organizationId: org.id }, { id: newClickId(t), clickedAt: new Date(t).toISOString(), ip: `198.51.100.${i}` }),
    );
    for (const c of clicks) expect(clickIdTime(c.id)).toBe(Date.parse(c.clickedAt));
    const pipeline = worker.app.get(ClickPipeline);
    await pipeline.store(clicks);
    // The same clicks again, alone and mixed with a new one (a fallback chunk replayed, a batch re-sent).
    await pipeline.store(clicks);
    const extra = rawClick({ id: link.id, organizationId: org.id }, { id: newClickId(boundary + 2), clickedAt: new Date(boundary + 2).toISOString() });
    await pipeline.store([clicks[2], extra, clicks[0]]);

    expect(await env.prisma.click.count({ where: { linkId: link.id } })).toBe(4);
    const total = await env.prisma.clickRollup.aggregate({ where: { linkId: link.id, dimension: 'total' }, _sum: { clicks: true } });
    expect(total._sum.clicks).toBe(4);
    expect((await env.prisma.link.findUniqueOrThrow({ where: { id: link.id } })).clickCount).toBe(4);
    const month = (t: number) => `clicks_p${new Date(t).toISOString().slice(0, 4)}${new Date(t).toISOString().slice(5, 7)}`;
    expect(await partitionOf(clicks[0].id)).toEqual([month(boundary - 1)]);
    expect(await partitionOf(clicks[1].id)).toEqual([month(boundary)]);
  });

  it('creates the months ahead, moving rows that waited in the default partition', async () => {
    const org = await fx.organization(Tier.PRO);
    const link = await fx.link(org.id);
    // Far beyond the partitions made so far: kept in the default partition.
    const at = Date.UTC(2031, 1, 10, 12);
    const early = rawClick({ id: link.id, organizationId: org.id }, { id: newClickId(at), clickedAt: new Date(at).toISOString() });
    await worker.app.get(ClickPipeline).store([early]);
    expect(await partitionOf(early.id)).toEqual(['clicks_default']);

    expect(await run('clicks.partitions', { now: '2031-01-15T00:00:00.000Z' })).toEqual({
      created: ['clicks_p203101', 'clicks_p203102', 'clicks_p203103', 'clicks_p203104'],
    });
    expect(await partitionOf(early.id)).toEqual(['clicks_p203102']);
    expect(await env.prisma.click.count({ where: { linkId: link.id } })).toBe(1);
    // Idempotent: a second run (a retried or duplicated job) creates nothing.
    expect(await run('clicks.partitions', { now: '2031-01-15T00:00:00.000Z' })).toEqual({ created: [] });
    // Inserts of those months land in their partition.
    const later = rawClick({ id: link.id, organizationId: org.id }, { id: newClickId(Date.UTC(2031, 3, 30)), clickedAt: new Date(Date.UTC(2031, 3, 30)).toISOString() });
    await worker.app.get(ClickPipeline).store([later]);
    expect(await partitionOf(later.id)).toEqual(['clicks_p203104']);
  });
});
