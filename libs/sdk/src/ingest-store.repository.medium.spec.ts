import { randomUUID } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import type { PixelEventJob, SdkInstallJob } from '@dl/platform/queue';
import { ClickFixtures, rejectionOf, SdkFixtures, useTestEnv } from '@dl/testing';
import { IngestStoreRepository } from './ingest-store.repository';

describe(IngestStoreRepository.name, () => {
  const t = useTestEnv({}, async (env) => {
    const fx = new ClickFixtures(env.prisma);
    const [acme, other] = [(await fx.organization()).id, (await fx.organization()).id];
    const app = (await new SdkFixtures(env.prisma).app(acme)).id;
    const link = { ...(await fx.link(acme)), organizationId: acme };
    return { repo: new IngestStoreRepository(env.prisma), fx, acme, other, app, link };
  });

  const install = (extra: Partial<SdkInstallJob> = {}): SdkInstallJob => ({
    organizationId: t.acme,
    appId: t.app,
    installId: randomUUID(),
    platform: 'ios',
    osVersion: '17.4',
    deviceModel: 'iPhone15,2',
    language: 'en',
    appVersion: '2.1.0',
    ip: '81.2.69.142',
    fingerprint: 'fp',
    clickId: null,
    linkId: null,
    matchType: null,
    ambiguous: false,
    receivedAt: '2030-05-01T10:00:00.000Z',
    ...extra,
  });
  const pixel = (siteId: string, extra: Partial<PixelEventJob> = {}): PixelEventJob => ({
    id: randomUUID(),
    organizationId: t.acme,
    siteId,
    type: 'conversion',
    url: 'https://shop.example.com/thanks',
    referrer: null,
    clickId: null,
    value: 19.9,
    currency: 'EUR',
    occurredAt: '2030-05-01T10:00:00.000Z',
    ...extra,
  });

  it('stores an install once per (app, installId) with its link; the first write wins', async () => {
    const click = await t.fx.click(t.link);
    const job = install({ clickId: click.id, linkId: t.link.id, matchType: 'clickId' });
    const saved = await t.repo.saveInstall(t.acme, job);
    expect(saved).toEqual({
      id: expect.any(String),
      installId: job.installId,
      appId: t.app,
      platform: 'ios',
      osVersion: '17.4',
      deviceModel: 'iPhone15,2',
      appVersion: '2.1.0',
      clickId: click.id,
      linkId: t.link.id,
      matchType: 'clickId',
      ambiguous: false,
      attributedAt: new Date('2030-05-01T10:00:00.000Z'),
      createdAt: new Date('2030-05-01T10:00:00.000Z'),
      shortCode: t.link.shortCode,
      projectId: null,
    });
    expect(await t.repo.saveInstall(t.acme, { ...job, linkId: null, clickId: null, platform: 'android' })).toEqual(saved);
    expect(await t.repo.installLinks(t.acme, [{ appId: t.app, installId: job.installId }])).toEqual([{ appId: t.app, installId: job.installId, linkId: t.link.id, clickId: click.id }]);
  });

  it('stores sessions and pixel events once; a pixel event takes the link of its click', async () => {
    const install1 = randomUUID();
    const open = { id: randomUUID(), organizationId: t.acme, appId: t.app, installId: install1, url: 'shop://p/1', openedAt: '2030-05-01T10:00:00.000Z' };
    await t.repo.saveSession(t.acme, open);
    await t.repo.saveSession(t.acme, open);
    expect(await t.env.prisma.appSession.findMany({ where: { installId: install1 } })).toMatchObject([{ id: open.id, url: 'shop://p/1' }]);

    const site = await new SdkFixtures(t.env.prisma).site(t.acme);
    const click = await t.fx.click(t.link);
    const event = pixel(site.id, { clickId: click.id });
    await t.repo.savePixelEvent(t.acme, event);
    await t.repo.savePixelEvent(t.acme, event);
    const stored = await t.env.prisma.pixelEvent.findMany({ where: { siteId: site.id } });
    expect(stored).toMatchObject([{ id: event.id, type: 'conversion', clickId: click.id, linkId: t.link.id, currency: 'EUR' }]);
    expect(Number(stored[0].value)).toBe(19.9);

    const at = new Date('2030-05-01T10:00:00Z');
    await t.repo.touchApps(t.acme, [t.app], at);
    await t.repo.touchApps(t.acme, [t.app], new Date(at.getTime() + 30_000));
    expect((await t.env.prisma.app.findUniqueOrThrow({ where: { id: t.app } })).lastSeenAt).toEqual(at);
    await t.repo.touchPixelSite(t.acme, site.id, at);
    expect((await t.env.prisma.pixelSite.findUniqueOrThrow({ where: { id: site.id } })).lastSeenAt).toEqual(at);
  });

  it("another organization's install, click, app and site answer as missing", async () => {
    const job = install();
    await t.repo.saveInstall(t.acme, job);
    expect(await t.repo.installLinks(t.other, [{ appId: t.app, installId: job.installId }])).toEqual([]);

    const theirSite = await new SdkFixtures(t.env.prisma).site(t.other);
    const myClick = await t.fx.click(t.link);
    const event = pixel(theirSite.id, { organizationId: t.other, clickId: myClick.id });
    await t.repo.savePixelEvent(t.other, event);
    expect(await t.env.prisma.pixelEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({ clickId: myClick.id, linkId: null });

    await t.repo.touchApps(t.other, [t.app], new Date('2031-01-01T00:00:00Z'));
    await t.repo.touchPixelSite(t.acme, theirSite.id, new Date('2031-01-01T00:00:00Z'));
    expect((await t.env.prisma.app.findUniqueOrThrow({ where: { id: t.app } })).lastSeenAt).not.toEqual(new Date('2031-01-01T00:00:00Z'));
    expect((await t.env.prisma.pixelSite.findUniqueOrThrow({ where: { id: theirSite.id } })).lastSeenAt).toBeNull();
  });

  it('a pixel event whose type is not one the enum knows is refused by the database (22P02)', async () => {
    const site = await new SdkFixtures(t.env.prisma).site(t.acme);
    expect(sqlState(await rejectionOf(t.repo.savePixelEvent(t.acme, pixel(site.id, { type: 'purchase' as 'conversion' }))))).toBe('22P02');
  });
});
