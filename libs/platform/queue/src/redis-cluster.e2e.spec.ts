import { Queue, QueueEvents, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { AppConfig } from '@dl/platform/config';
import { createRedisClient, linkInvalidationChannel, RedisService, scanKeys } from '@dl/platform/redis';
import { flushPrefix, nodeCommand, PrivateRedisCluster, testConfig } from '@dl/testing';
import { bullOptions } from './queue.service';

/**
 * Redis Cluster mode (decisions §18) on a real 6-node cluster started by the harness (or the one
 * the cluster CI step shares): the client factory, hash-tagged keys, scripts, BullMQ and pub/sub
 * across nodes.
 */
describe('Redis Cluster mode', () => {
  let cluster: PrivateRedisCluster;
  let config: AppConfig;
  let redis: RedisService;

  beforeAll(async () => {
    cluster = await PrivateRedisCluster.start();
    config = testConfig('postgresql://unused@127.0.0.1:1/unused', { REDIS_CLUSTER_NODES: cluster.nodeList });
    redis = new RedisService(config);
    await redis.onModuleInit();
  }, 60_000);

  afterAll(async () => {
    await redis?.onModuleDestroy();
    await cluster?.stop();
  });

  it('starts 3 masters with a replica each, every node cluster_state:ok', async () => {
    const roles = await cluster.roles();
    expect(roles.size).toBe(6);
    const masters = [...roles].filter(([, r]) => r.role === 'master').map(([p]) => p);
    expect(masters).toHaveLength(3);
    for (const [, r] of roles) if (r.role === 'replica') expect(masters).toContain(r.masterPort);
    for (const n of cluster.nodes) expect(String(await nodeCommand(n.port, 'CLUSTER', 'INFO'))).toContain('cluster_state:ok');
    expect(cluster.nodeList.split(',')).toHaveLength(6);
  });

  it('makes every client of the factory a Cluster, and slotKey co-locates the keys of one tag', async () => {
    expect(redis.cluster).toBe(true);
    expect((redis.client as unknown as Cluster).isCluster).toBe(true);
    const dup = redis.duplicate();
    expect((dup as unknown as Cluster).isCluster).toBe(true);
    dup.disconnect();

    const a = redis.slotKey('org-1', 'wh', 'w1', 'lane');
    const b = redis.slotKey('org-1', 'whorg', 'org-1', 'inflight');
    expect(a).toBe(`${config.REDIS_PREFIX}:{org-1}:wh:w1:lane`);
    expect(await redis.client.cluster('KEYSLOT', a)).toBe(await redis.client.cluster('KEYSLOT', b));
    // A multi-key script over them runs (it would fail with CROSSSLOT without the tag).
    const out = await redis.client.eval(`redis.call('SET', KEYS[1], '1'); redis.call('SET', KEYS[2], '2'); return redis.call('MGET', KEYS[1], KEYS[2])`, 2, a, b);
    expect(out).toEqual(['1', '2']);
    // Untagged keys of different names land in different slots: MGET over them is refused.
    await expect(redis.client.mget(redis.key('x', '1'), redis.key('y', '2'), redis.key('z', '3'))).rejects.toThrow(/CROSSSLOT|same slot/i);
  });

  it('keeps the single-server key layout when REDIS_CLUSTER_NODES is unset', () => {
    const single = new RedisService(testConfig('postgresql://unused@127.0.0.1:1/unused', { REDIS_PREFIX: 'p' }));
    expect(single.cluster).toBe(false);
    expect(single.slotKey('org-1', 'wh', 'w1', 'lane')).toBe('p:wh:w1:lane');
    single.client.disconnect();
  });

  it('delivers a PUBLISH sent to one node to a subscriber connected through the cluster client', async () => {
    const sub = createRedisClient(config, { enableOfflineQueue: true, maxRetriesPerRequest: null });
    const channel = linkInvalidationChannel(redis);
    const got: string[] = [];
    sub.on('message', (ch: string, msg: string) => ch === channel && got.push(msg));
    await sub.subscribe(channel);
    // Publish from a plain connection to every master in turn: whichever node the subscriber
    // sits on, at least two of these come from another node over the cluster bus.
    const masters = [...(await cluster.roles())].filter(([, r]) => r.role === 'master').map(([p]) => p);
    for (const port of masters) await nodeCommand(port, 'PUBLISH', channel, `from-${port}`);
    const deadline = Date.now() + 5000;
    while (got.length < masters.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(got.sort()).toEqual(masters.map((p) => `from-${p}`).sort());
    sub.disconnect();
  });

  it('runs BullMQ on the hash-tagged prefix: one job queued and processed once', async () => {
    const opts = bullOptions(config);
    expect(opts.prefix).toBe(`{${config.REDIS_PREFIX}:bull}`);
    const queue = new Queue('cluster-probe', opts);
    const seen: string[] = [];
    const worker = new Worker('cluster-probe', async (job) => void seen.push(job.data.n), { ...opts, concurrency: 4 });
    // From the stream's start: with the default '$' an event written between "ready" and the
    // first blocking XREAD is missed and its job's wait times out (seen once in CI).
    const events = new QueueEvents('cluster-probe', { ...opts, lastEventId: '0-0' });
    await events.waitUntilReady();
    try {
      const jobs = await queue.addBulk(Array.from({ length: 20 }, (_, i) => ({ name: 'probe', data: { n: String(i) } })));
      // Each wait listens for the queue's 'closing': 20 at once are expected, not a leak (Node warns past 10).
      queue.setMaxListeners(jobs.length + 10);
      await Promise.all(jobs.map((j) => j.waitUntilFinished(events, 20_000)));
      expect(seen.sort()).toEqual(Array.from({ length: 20 }, (_, i) => String(i)).sort());
      // Every BullMQ key of the prefix is in one slot.
      const slots = new Set<number>();
      await scanKeys(redis.client, `{${config.REDIS_PREFIX}:bull}:*`, async (keys) => {
        for (const k of keys) slots.add(Number(await redis.client.cluster('KEYSLOT', k)));
      });
      expect(slots.size).toBe(1);
    } finally {
      await worker.close();
      await events.close();
      await queue.close();
    }
  }, 60_000);

  it('flushPrefix deletes the prefix on every master (app keys and BullMQ keys)', async () => {
    for (let i = 0; i < 50; i++) await redis.client.set(redis.key('flush', String(i)), '1');
    let before = 0;
    await scanKeys(redis.client, `${config.REDIS_PREFIX}:*`, async (keys) => void (before += keys.length));
    expect(before).toBeGreaterThanOrEqual(50);
    await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX, config.REDIS_CLUSTER_NODES);
    let after = 0;
    for (const pattern of [`${config.REDIS_PREFIX}:*`, `{${config.REDIS_PREFIX}:bull}:*`]) {
      await scanKeys(redis.client, pattern, async (keys) => void (after += keys.length));
    }
    expect(after).toBe(0);
  });
});
