import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkerApp } from '@dl/apps/worker';
import { bullPrefix } from '@dl/platform/queue';
import { appEnv, PrivateRedisCluster, RunningApp, SeededOrg, seedLink, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * A Redis Cluster master failover during redirect load (decisions §18): the master that holds the
 * click queue hands over to its replica (`CLUSTER FAILOVER` on the replica) while visits keep
 * coming. No visit may fail (the edge answers from its caches and Postgres, and a click it cannot
 * queue goes to its disk fallback), and every answered visit is exactly one stored click.
 * Part of the `cluster` jest project (`npm test`, `npm run test:cluster`); it makes its own cluster, so the failover
 * disturbs no other test file.
 */
const describeCluster = process.env.TEST_REDIS_CLUSTER_NODES ? describe : describe.skip;

describeCluster('redirect on Redis Cluster: master failover under load', () => {
  let cluster: PrivateRedisCluster, env: TestEnv, redirect: RunningApp, worker: RunningApp, org: SeededOrg, fallbackDir: string;

  beforeAll(async () => {
    cluster = await PrivateRedisCluster.start();
    fallbackDir = mkdtempSync(join(tmpdir(), 'dl-failover-fallback-'));
    ({ env, server: redirect } = await appEnv(createRedirectApp, { REDIS_CLUSTER_NODES: cluster.nodeList, TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip', CLICK_FALLBACK_DIR: fallbackDir }));
    worker = await startApp(createWorkerApp, env.config);
    org = await seedRedirectOrg(env.prisma);
  }, 90_000);

  afterAll(async () => {
    await redirect?.close();
    await worker?.close();
    await env?.teardown();
    await cluster?.stop();
    if (fallbackDir) rmSync(fallbackDir, { recursive: true, force: true });
  }, 90_000);

  it('answers every visit (no 5xx) and stores exactly one click per answered visit', async () => {
    const link = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/failover' });
    // The master of the BullMQ slot takes every queued click: that is the one to lose.
    const master = await cluster.masterOf(`${bullPrefix(env.config)}:clicks:id`);
    const replica = await cluster.replicaOf(master);

    const statuses = new Map<number, number>();
    let answered = 0;
    let sent = 0;
    // Visits keep coming until 300 more have been answered after the promotion (however fast the
    // machine: a fixed count could all be answered before the failover completed), at most MAX.
    const MAX = 30_000;
    let failedOverAt = -1;
    let promotedAt = -1;
    const failover = (async () => {
      while (answered < 300) await new Promise((r) => setTimeout(r, 10));
      failedOverAt = answered;
      await cluster.failover(replica);
      promotedAt = answered;
    })();
    const visitor = async () => {
      while (sent < MAX && !(promotedAt >= 0 && answered >= promotedAt + 300)) {
        const i = sent++;
        const res = await fetch(`${redirect.url}/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': UA.windowsChrome, 'cf-connecting-ip': `10.7.${i >> 8}.${i & 255}` },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        answered++;
      }
    };
    await Promise.all([...Array.from({ length: 16 }, visitor), failover]);
    const TOTAL = sent;

    // The failover happened in the middle of the load, not after it.
    expect(failedOverAt).toBeGreaterThanOrEqual(300);
    expect(promotedAt).toBeGreaterThanOrEqual(failedOverAt);
    expect(answered).toBeGreaterThanOrEqual(promotedAt + 300);
    expect(answered).toBe(TOTAL);
    // The old master learns of its demotion a moment after the promotion: wait for it (bounded).
    for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const roles = await cluster.roles();
      if (roles.get(replica)?.role === 'master' && roles.get(master)?.role === 'replica') break;
    }
    expect((await cluster.roles()).get(replica)?.role).toBe('master');
    expect((await cluster.roles()).get(master)?.role).toBe('replica');
    expect(Object.fromEntries(statuses)).toEqual({ 302: TOTAL });

    // Every visit is one click in Postgres: none lost in the failover, none counted twice.
    const deadline = Date.now() + 60_000;
    let stored = 0;
    for (;;) {
      stored = (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks WHERE link_id = ${link.id}::uuid`)[0].n;
      if (stored >= TOTAL || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(stored).toBe(TOTAL);
    // Give a late duplicate (a retried job) the time to show up, then check again with the counter.
    await new Promise((r) => setTimeout(r, 1500));
    const after = (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks WHERE link_id = ${link.id}::uuid`)[0].n;
    expect(after).toBe(TOTAL);
    const row = await env.prisma.link.findUniqueOrThrow({ where: { id: link.id }, select: { clickCount: true } });
    expect(row.clickCount).toBe(TOTAL);
  }, 180_000);
});
