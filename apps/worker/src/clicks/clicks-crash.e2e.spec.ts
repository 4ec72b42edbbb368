import { Job, Queue } from 'bullmq';
import { ClickPipeline } from '@dl/clicks';
import { createWorkerApp } from '@dl/apps/worker';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, createTestEnv, KNOWN_IPS, rawClick, rolledUpClicks, RunningApp, startApp, storedClicks, USER_AGENTS, useSuite, waitForValue } from '@dl/testing';

const waitFor = <T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 25_000) => waitForValue(probe, ok, timeoutMs);

/**
 * A worker dying mid-batch: before its transaction commits (nothing stored, jobs
 * retried) and after it commits but before BullMQ hears of it (stored, jobs
 * retried anyway). A fresh worker then processes the retries: counts stay exact.
 */
describe('worker: click consumer crash recovery', () => {
  const running: RunningApp[] = [];
  const t = useSuite(async (own) => {
    const env = own(await createTestEnv());
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const clicks = own(new Queue(Queues.clicks, bullOptions(env.config)));
    own(async () => {
      for (const w of running) await w.close().catch(() => undefined);
    });
    return { env, fx, org, clicks };
  });

  const start = async () => {
    const w = await startApp(createWorkerApp, t.env.config);
    running.push(w);
    return w;
  };
  const stored = (linkId: string) => storedClicks(t.env.prisma, linkId);
  const total = (linkId: string) => rolledUpClicks(t.env.prisma, linkId);
  const clickCount = async (linkId: string) =>
    (await t.env.prisma.link.findUniqueOrThrow({ where: { id: linkId } })).clickCount;
  const states = async (jobs: Job[]) => Promise.all(jobs.map((j) => t.clicks.getJobState(j.id!)));
  const attempts = async (jobs: Job[]) => (await Promise.all(jobs.map((j) => t.clicks.getJob(j.id!)))).map((j) => j?.attemptsMade ?? 0);

  const enqueue300 = async (linkId: string) => {
    const uas = [USER_AGENTS.iPhone, USER_AGENTS.windowsChrome, USER_AGENTS.androidPhone];
    const jobs = Array.from({ length: 300 }, (_, i) =>
      rawClick({ id: linkId, organizationId: t.org.id }, { userAgent: uas[i % 3], ip: i % 2 ? KNOWN_IPS.kettering : `203.0.113.${i % 200}` }),
    );
    // As the edge sends them: `click.batch` jobs (here 3 of 100 clicks).
    return t.clicks.addBulk(
      [0, 100, 200].map((i) => ({ name: 'click.batch', data: { clicks: jobs.slice(i, i + 100) }, opts: { jobId: `batch-${jobs[i].id}` } })),
    );
  };

  it('a crash before commit stores nothing; a fresh worker stores every click once', async () => {
    const link = await t.fx.link(t.org.id);
    const doomed = await start();
    doomed.app.get(ClickPipeline).use({
      beforeCommit: () => {
        throw new Error('simulated crash before commit');
      },
    });
    const jobs = await enqueue300(link.id);
    await waitFor(() => attempts(jobs), (a) => a.every((n) => n >= 1));
    await doomed.close();
    expect(await stored(link.id)).toBe(0);
    expect(await total(link.id)).toBe(0);

    await start();
    await waitFor(() => states(jobs), (s) => s.every((x) => x === 'completed'));
    expect(await stored(link.id)).toBe(300);
    expect(await total(link.id)).toBe(300);
    expect(await clickCount(link.id)).toBe(300);
  });

  it('a crash after commit (jobs not acknowledged) is replayed without double counting', async () => {
    for (const w of running.splice(0)) await w.close();
    const link = await t.fx.link(t.org.id);
    const doomed = await start();
    doomed.app.get(ClickPipeline).use({
      committed: () => {
        throw new Error('simulated crash after commit');
      },
    });
    const jobs = await enqueue300(link.id);
    await waitFor(() => attempts(jobs), (a) => a.every((n) => n >= 1));
    await doomed.close();
    expect(await stored(link.id)).toBe(300);

    await start();
    await waitFor(() => states(jobs), (s) => s.every((x) => x === 'completed'));
    expect(await stored(link.id)).toBe(300);
    expect(await total(link.id)).toBe(300);
    expect(await clickCount(link.id)).toBe(300);
    const [{ visitors }] = await t.env.prisma.$queryRaw<Array<{ visitors: number }>>`
      SELECT coalesce(sum(clicks), 0)::int AS visitors FROM click_rollups WHERE link_id = ${link.id}::uuid AND dimension = 'visitors'`;
    const [{ distinct }] = await t.env.prisma.$queryRaw<Array<{ distinct: number }>>`
      SELECT count(*)::int AS distinct FROM click_daily_visitors WHERE link_id = ${link.id}::uuid`;
    expect(visitors).toBe(distinct);
  });
});
