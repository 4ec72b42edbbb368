import { randomUUID } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, SdkFixtures, useTestEnv } from '@dl/testing';
import { AttributionRepository } from './attribution.repository';

const HOUR = 3_600_000;

describe(AttributionRepository.name, () => {
  const now = new Date();
  const t = useTestEnv({}, async (env, own) => {
    const fx = new ClickFixtures(env.prisma);
    const [acme, other] = [(await fx.organization()).id, (await fx.organization()).id];
    const app = (await new SdkFixtures(env.prisma).app(acme)).id;
    return { repo: own(new AttributionRepository(env.config)), fx, acme, other, app };
  });

  const link = async (organizationId: string, windowHours = 24) => {
    const l = await t.fx.link(organizationId);
    await t.env.prisma.link.update({ where: { id: l.id }, data: { attributionWindowHours: windowHours, deepLinkPath: '/product/1', deepLinkParameters: { sku: 'A1' } } });
    return { ...l, organizationId };
  };

  it('reads the click by id and the human fingerprint candidates within each link window, newest first', async () => {
    const l = await link(t.acme);
    const short = await link(t.acme, 1);
    const byId = await t.fx.click(l, { clickedAt: new Date(now.getTime() - 2 * HOUR), fingerprint: 'fp-1' });
    const newer = await t.fx.click(l, { clickedAt: new Date(now.getTime() - HOUR), fingerprint: 'fp-1' });
    await t.fx.click(l, { clickedAt: new Date(now.getTime() - 30 * 60_000), fingerprint: 'fp-1', isBot: true });
    await t.fx.click(short, { clickedAt: new Date(now.getTime() - 2 * HOUR), fingerprint: 'fp-1' }); // outside its 1 h window
    await t.fx.click(l, { clickedAt: new Date(now.getTime() - 25 * HOUR), fingerprint: 'fp-1' }); // outside 24 h

    const reads = await t.repo.lookup(t.acme, t.app, randomUUID(), byId.id, 'fp-1', now);
    expect(reads.stored).toBeNull();
    expect(reads.byClick).toEqual({ clickId: byId.id, linkId: l.id, clickedAt: byId.clickedAt, shortCode: l.shortCode, deepLinkPath: '/product/1', deepLinkParameters: { sku: 'A1' } });
    expect(reads.candidates.map((c) => c.clickId)).toEqual([newer.id, byId.id]);
  });

  it('returns the install as the worker stored it', async () => {
    const l = await link(t.acme);
    const installId = randomUUID();
    await t.env.prisma.install.create({ data: { organizationId: t.acme, appId: t.app, installId, platform: 'ios', linkId: l.id, matchType: 'fingerprint', ambiguous: true } });
    const reads = await t.repo.lookup(t.acme, t.app, installId, null, null, now);
    expect(reads).toEqual({
      stored: { linkId: l.id, clickId: null, matchType: 'fingerprint', ambiguous: true, shortCode: l.shortCode, deepLinkPath: '/product/1', deepLinkParameters: { sku: 'A1' } },
      byClick: null,
      candidates: [],
    });
  });

  it("another organization's click and fingerprint answer as missing", async () => {
    const theirs = await link(t.other);
    const click = await t.fx.click(theirs, { clickedAt: new Date(now.getTime() - HOUR), fingerprint: 'fp-theirs' });
    expect(await t.repo.lookup(t.acme, t.app, randomUUID(), click.id, 'fp-theirs', now)).toEqual({ stored: null, byClick: null, candidates: [] });
    expect((await t.repo.lookup(t.other, t.app, randomUUID(), click.id, null, now)).byClick?.clickId).toBe(click.id);
  });

  it('a click id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.lookup(t.acme, t.app, randomUUID(), 'not-a-uuid', null, now)))).toBe('22P02');
  });
});
