import { Queue } from 'bullmq';
import { bullOptions, Queues } from '@dl/platform/queue';
import { childPids, configEnv, createTestEnv, listeningCount, seedLink, seedRedirectOrg, spawnApp, tempDirOf, UA, useSuite, waitUntil } from '@dl/testing';

/**
 * Many processes (WEB_CONCURRENCY, node:cluster): the production entries of the redirect and the
 * worker each run as 2 processes, the redirect's behind one port. Every visit is one stored click
 * (none lost or counted twice between the processes), and the schedules both worker processes
 * register exist once and the boot-time job runs once.
 */
describe('2 redirect and 2 worker processes (WEB_CONCURRENCY=2)', () => {
  const t = useSuite(async (own) => {
    const env = own(await createTestEnv({ WORKER_SCHEDULES_ENABLED: 'true', TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip' }));
    const base = { ...configEnv(env.config), LOG_LEVEL: 'info', WEB_CONCURRENCY: '2', CLICK_FALLBACK_DIR: tempDirOf(own, 'dl-processes-') };
    const [redirect, worker] = await Promise.all([spawnApp('redirect', base, 120_000), spawnApp('worker', base, 120_000)].map(async (started) => own(await started)));
    await waitUntil('both redirect processes', () => listeningCount(redirect, 'redirect') === 2);
    await waitUntil('both worker processes', () => listeningCount(worker, 'worker') === 2);
    return { env, redirect, worker };
  }, 180_000);

  it('runs each app as a primary and 2 processes', () => {
    expect(childPids(t.redirect)).toHaveLength(2);
    expect(childPids(t.worker)).toHaveLength(2);
  });

  it('2 redirect processes behind one port: every visit is exactly one stored click', async () => {
    const org = await seedRedirectOrg(t.env.prisma);
    const link = await seedLink(t.env.prisma, org, { originalUrl: 'https://example.com/two-processes' });
    const TOTAL = 600;
    let next = 0;
    const statuses = new Map<number, number>();
    const visitor = async () => {
      while (next < TOTAL) {
        const i = next++;
        // A new connection per visit: node:cluster hands connections out in turn to the processes.
        const res = await fetch(`${t.redirect.url}/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': UA.windowsChrome, 'cf-connecting-ip': `10.8.${i >> 8}.${i & 255}`, connection: 'close' },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, visitor));
    expect(Object.fromEntries(statuses)).toEqual({ 302: TOTAL });

    const count = async () =>
      (await t.env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks WHERE link_id = ${link.id}::uuid`)[0].n;
    await waitUntil('every click stored', async () => (await count()) >= TOTAL, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await count()).toBe(TOTAL);
    const row = await t.env.prisma.link.findUniqueOrThrow({ where: { id: link.id }, select: { clickCount: true } });
    expect(row.clickCount).toBe(TOTAL);
  }, 120_000);

  it('2 worker processes: each schedule exists once with one next run, and the boot job ran once', async () => {
    const maintenance = new Queue(Queues.maintenance, bullOptions(t.env.config));
    const reports = new Queue(Queues.reports, bullOptions(t.env.config));
    try {
      const schedulers = [...(await maintenance.getJobSchedulers()), ...(await reports.getJobSchedulers())].map((s) => s.key);
      expect(schedulers.length).toBeGreaterThanOrEqual(3);
      expect(new Set(schedulers).size).toBe(schedulers.length);
      // One pending run per scheduler, not one per process.
      expect(await maintenance.getDelayedCount()).toBe((await maintenance.getJobSchedulers()).length);
      expect(await reports.getDelayedCount()).toBe((await reports.getJobSchedulers()).length);
      // Both processes queued the boot-time partitions job; it exists (and ran) once.
      await waitUntil('boot job done', async () => (await maintenance.getCompletedCount()) >= 1, 30_000);
      const boot = (await maintenance.getJobs(['completed', 'active', 'waiting', 'failed', 'delayed'])).filter((j) => j.id?.startsWith('clicks.partitions.boot.'));
      expect(boot).toHaveLength(1);
      expect(await boot[0].getState()).toBe('completed');
    } finally {
      await maintenance.close();
      await reports.close();
    }
  }, 60_000);
});
