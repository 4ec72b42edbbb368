import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import Redis from 'ioredis';
import { closeAll, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { SafetyService } from '../safety.service';
import { RescreenModule } from './rescreen.module';
import { BlockedLink } from './rescreen.pg';
import { RescreenService } from './rescreen.service';

/** decisions §22 re-screening: a feed change blocks exactly the links it matches, in any organization, and counts them. */
describe(RescreenService.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rescreen-'));
  const feed = join(dir, 'feed.txt');
  let env: TestEnv, app: INestApplicationContext, rescreen: RescreenService, safety: SafetyService;
  let acme: SeededOrganization, other: SeededOrganization;
  let sub: Redis;
  const published: string[] = [];

  const link = (org: SeededOrganization, shortCode: string, values: Record<string, unknown> = {}) =>
    env.prisma.link.create({
      data: { organizationId: org.organization.id, userId: org.owner.user.id, templateId: org.template.id, shortCode, originalUrl: 'https://fine.example/', ...values },
    });
  const state = async (org: SeededOrganization) =>
    Object.fromEntries(
      (await env.prisma.link.findMany({ where: { organizationId: org.organization.id }, orderBy: { shortCode: 'asc' } })).map((l) => [l.shortCode, [l.safetyStatus, l.safetyReason]]),
    );
  const changeFeed = async (text: string) => {
    writeFileSync(feed, text);
    await safety.reloadFeeds();
  };

  beforeAll(async () => {
    writeFileSync(feed, 'old.test\n');
    ({ env, app } = await serviceEnv([RescreenModule], { THREAT_FEEDS: feed, THREAT_FEEDS_POLL_MS: '30000', AUTO_SUSPEND_BLOCKED_LINKS: '3' }));
    rescreen = app.get(RescreenService);
    safety = app.get(SafetyService);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
    await link(acme, 'a-fine');
    await link(acme, 'a-sub', { originalUrl: 'https://cdn.Evil.test./x' });
    await link(acme, 'a-variant', { variants: [{ url: 'https://ok.example/', weight: 50 }, { url: 'https://phish.test:443/login', weight: 50 }] });
    await link(acme, 'a-inactive', { originalUrl: 'https://evil.test/', isActive: false });
    await link(acme, 'a-reported', { originalUrl: 'https://evil.test/r', safetyStatus: 'blocked', safetyReason: 'reported: spam' });
    await link(acme, 'a-rule', { redirectRules: [{ conditions: { countries: ['GB'] }, url: 'https://fine.example/gb' }] });
    for (let i = 0; i < 7; i++) await link(other, `o-${i}`, { originalUrl: `https://other.example/${i}` });
    sub = new Redis(env.config.REDIS_URL);
    sub.on('message', (_c: string, m: string) => published.push(m));
    await sub.subscribe(`${env.config.REDIS_PREFIX}:links:invalidate`);
  });
  afterAll(async () => {
    sub?.disconnect();
    await closeAll(app, env);
  });

  it('blocks only the active links a changed feed matches, through every destination field; invalidates them; the other org is untouched', async () => {
    await changeFeed('old.test\nevil.test\nhttps://phish.test/login\n');
    const batches: BlockedLink[][] = [];
    // Batches of 4 prove the keyset paging crosses pages.
    const outcome = await rescreen.pass(async (links) => void batches.push(links), { batch: 4 });
    expect(outcome).toMatchObject({ scanned: 11, blocked: 2, suspended: 0 });
    expect(await state(acme)).toEqual({
      'a-fine': ['ok', null],
      'a-inactive': ['ok', null],
      'a-reported': ['blocked', 'reported: spam'],
      'a-rule': ['ok', null],
      'a-sub': ['blocked', 'blocklisted domain'],
      'a-variant': ['blocked', 'blocklisted URL'],
    });
    expect(Object.values(await state(other)).every(([s]) => s === 'ok')).toBe(true);
    const flagged = batches.flat();
    expect(flagged.map((l) => [l.shortCode, l.reason, l.organizationId]).sort()).toEqual([
      ['a-sub', 'blocklisted domain', acme.organization.id],
      ['a-variant', 'blocklisted URL', acme.organization.id],
    ]);
    await new Promise((r) => setTimeout(r, 100));
    expect(published.sort()).toEqual(['a-sub', 'a-variant']);

    // Nothing new: a second pass blocks nothing; the lock-holding run for this version runs once.
    expect(await rescreen.pass()).toMatchObject({ scanned: 9, blocked: 0 });
    expect(await rescreen.runForCurrentFeeds()).toMatchObject({ blocked: 0 });
    expect(await rescreen.runForCurrentFeeds()).toBe('done');
  });

  it('suspends the organization pending review at its third link blocked within 24 h', async () => {
    await changeFeed('old.test\nevil.test\nhttps://phish.test/login\nhttps://fine.example/gb\n');
    const outcome = await rescreen.runForCurrentFeeds();
    expect(outcome).toMatchObject({ blocked: 1, suspended: 1 });
    const org = await env.prisma.organization.findUniqueOrThrow({ where: { id: acme.organization.id } });
    expect(org.suspendedAt).not.toBeNull();
    expect(org.suspensionReason).toBe('automatic: 3 links blocked by re-screening within 24 h, pending review');
    expect((await env.prisma.organization.findUniqueOrThrow({ where: { id: other.organization.id } })).suspendedAt).toBeNull();
  });

  it('another worker holding the lock: busy, nothing done', async () => {
    await changeFeed('old.test\nevil.test\nother.example\n');
    const redis = new Redis(env.config.REDIS_URL);
    await redis.set(`${env.config.REDIS_PREFIX}:safety:rescreen:lock`, 'someone-else', 'PX', 5000);
    expect(await rescreen.runForCurrentFeeds()).toBe('busy');
    expect(Object.values(await state(other)).every(([s]) => s === 'ok')).toBe(true);
    await redis.del(`${env.config.REDIS_PREFIX}:safety:rescreen:lock`);
    redis.disconnect();
    expect(await rescreen.runForCurrentFeeds()).toMatchObject({ blocked: 7, suspended: 1 });
  });
});
