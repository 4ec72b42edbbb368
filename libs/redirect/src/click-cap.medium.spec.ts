import { randomUUID } from 'node:crypto';
import { RedisService } from '@dl/platform/redis';
import { createTestEnv, TestEnv } from '@dl/testing';
import { ClickCap } from './click-cap';
import { RedirectLinkSnapshot } from './redirect-link';
import { RedirectStore } from './redirect-store';

/** ClickCap on a real Redis and Postgres: the visits of one event-loop turn admitted in one script call, exactly. */
describe(ClickCap.name, () => {
  let env: TestEnv;
  let redis: RedisService;
  let store: RedirectStore;
  let cap: ClickCap;

  const link = (maxClicks: number): RedirectLinkSnapshot =>
    ({ id: randomUUID(), organizationId: randomUUID(), maxClicks }) as unknown as RedirectLinkSnapshot;
  const used = async (l: RedirectLinkSnapshot) => Number(await redis.client.get(redis.key('links', 'clicks-used', l.id)));

  beforeAll(async () => {
    env = await createTestEnv();
    redis = new RedisService(env.config);
    await redis.onModuleInit();
    store = new RedirectStore(env.config);
    cap = new ClickCap(redis, store);
    await cap.onModuleInit();
  });

  afterAll(async () => {
    cap?.onModuleDestroy();
    await store?.onModuleDestroy();
    redis?.client.disconnect();
    await env?.teardown();
  });

  it('visits of one turn to several links, more than one call holds: exactly the cap of each is admitted', async () => {
    const small = link(100);
    const large = link(1_000);
    const tiny = link(1);
    // 600 visits issued in the same turn, interleaved across three counters that do not exist yet
    // (each is rebuilt from Postgres first: no clicks stored, so 0).
    const visits = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? small : i % 3 === 1 ? large : tiny));
    const reached = await Promise.all(visits.map((l) => cap.reached(l, true)));
    const admitted = (l: RedirectLinkSnapshot) => visits.filter((v, i) => v === l && !reached[i]).length;
    expect([admitted(small), admitted(large), admitted(tiny)]).toEqual([100, 200, 1]);
    expect([await used(small), await used(large), await used(tiny)]).toEqual([100, 200, 1]);
    // Used up: known without asking Redis again, for counted and uncounted visits alike.
    expect(cap.knownReached(small)).toBe(true);
    expect(await cap.reached(tiny, false)).toBe(true);
  });

  it('one counter visited 300 times in one turn (two script calls) stops at its cap, in order', async () => {
    const l = link(257);
    await redis.client.set(redis.key('links', 'clicks-used', l.id), '7');
    const reached = await Promise.all(Array.from({ length: 300 }, () => cap.reached(l, true)));
    expect(reached.filter((r) => !r)).toHaveLength(250);
    // The admitted are the first 250 asked: a later visit never takes a unit an earlier one was refused.
    expect(reached.indexOf(true)).toBe(250);
    expect(await used(l)).toBe(257);
  });

  it('an uncounted visit (a bot, a HEAD) only looks: it takes no unit', async () => {
    const l = link(5);
    await redis.client.set(redis.key('links', 'clicks-used', l.id), '4');
    expect(await Promise.all([cap.reached(l, false), cap.reached(l, false)])).toEqual([false, false]);
    expect(await used(l)).toBe(4);
    expect(await Promise.all([cap.reached(l, true), cap.reached(l, true)])).toEqual([false, true]);
    expect(await used(l)).toBe(5);
  });

  it('Redis unreachable: every visit, counted or not, is let through uncounted and the link is not marked used up', async () => {
    const down = new ClickCap(redis, store);
    await down.onModuleInit();
    down.onModuleDestroy(); // its own connection closed: every command fails at once
    const l = link(1);
    expect(await Promise.all([down.reached(l, true), down.reached(l, true), down.reached(l, false)])).toEqual([false, false, false]);
    expect(down.knownReached(l)).toBeUndefined();
    expect(await redis.client.get(redis.key('links', 'clicks-used', l.id))).toBeNull();
  });
});
