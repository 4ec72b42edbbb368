import { Readable } from 'node:stream';
import { ClickPipeline, EnrichedClick, LiveClickPublisher, MAX_LIVE_STREAMS } from '@dl/clicks';
import { Tier } from '@dl/platform/db';
import { RedisService } from '@dl/platform/redis';
import { ClickFixtures, createTestEnv, PrivateRedisCluster, TestEnv } from '@dl/testing';
import { CubeRepository } from './cube.repository';
import { LiveClicksService, TooManyLiveStreamsError } from './live-clicks.service';

/** The text an SSE body has pushed so far. */
function collect(body: Readable): () => string {
  let text = '';
  body.on('data', (chunk: Buffer | string) => (text += chunk.toString()));
  return () => text;
}

/**
 * Live clicks on a real 6-node Redis Cluster (decisions §24): the stream-place script (one key),
 * the subscriber connection and PUBLISH from another client all go through ioredis' Cluster.
 */
describe('live clicks on Redis Cluster', () => {
  let cluster: PrivateRedisCluster;
  let env: TestEnv;
  let redis: RedisService;
  let live: LiveClicksService;
  let publisher: LiveClickPublisher;

  beforeAll(async () => {
    cluster = await PrivateRedisCluster.start();
    env = await createTestEnv({ REDIS_CLUSTER_NODES: cluster.nodeList });
    redis = new RedisService(env.config);
    await redis.onModuleInit();
    live = new LiveClicksService(redis, new CubeRepository(env.prisma));
    // The publisher's only use of the pipeline is to hook its commits; here batches are handed to it directly.
    publisher = new LiveClickPublisher({ use: () => () => undefined } as unknown as ClickPipeline, redis);
  }, 90_000);

  afterAll(async () => {
    live?.onModuleDestroy();
    await redis?.onModuleDestroy();
    await env?.teardown();
    await cluster?.stop();
  });

  it('streams a published click and bounds the streams per organization', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const link = await fx.link(org.id);
    const body = await live.open(org.id);
    const text = collect(body);
    const click = {
      id: '01900000-0000-7000-8000-000000000001',
      organizationId: org.id,
      linkId: link.id,
      clickedAt: new Date('2026-06-10T10:00:00Z'),
      countryCode: 'DE',
      city: 'Berlin',
      deviceType: 'mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      referrerHost: 't.co',
      isBot: false,
    } as EnrichedClick;
    await publisher.publish([click, { ...click, id: '01900000-0000-7000-8000-000000000002', isBot: true }]);
    const deadline = Date.now() + 3000;
    while (!text().includes('event: click') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const data = /data: (.*)\n/.exec(text())?.[1];
    expect(JSON.parse(data ?? 'null')).toEqual({
      id: click.id,
      linkId: link.id,
      shortCode: link.shortCode,
      clickedAt: '2026-06-10T10:00:00.000Z',
      countryCode: 'DE',
      city: 'Berlin',
      device: 'mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      referrerHost: 't.co',
    });
    expect(text().match(/event: click/g)).toHaveLength(1);

    const more: Readable[] = [];
    for (let i = 1; i < MAX_LIVE_STREAMS; i++) more.push(await live.open(org.id));
    await expect(live.open(org.id)).rejects.toBeInstanceOf(TooManyLiveStreamsError);
    body.destroy();
    await new Promise((r) => setTimeout(r, 100));
    more.push(await live.open(org.id));
    for (const b of more) b.destroy();
  }, 30_000);
});
