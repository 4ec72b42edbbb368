import { randomUUID } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import type { PixelEventJob, SdkInstallJob } from '@dl/platform/queue';
import { ClickFixtures, createTestEnv, rejectionOf, SdkFixtures, TestEnv } from '@dl/testing';
import { IngestStoreRepository } from './ingest-store.repository';

describe(IngestStoreRepository.name, () => {
  let env: TestEnv;
  let repo: IngestStoreRepository;
  let fx: ClickFixtures;
  let acme: string;
  let other: string;
  let app: string;
  let link: { id: string; shortCode: string; organizationId: string };

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new IngestStoreRepository(env.prisma);
    fx = new ClickFixtures(env.prisma);
    [acme, other] = [(await fx.organization()).id, (await fx.organization()).id];
    app = (await new SdkFixtures(env.prisma).app(acme)).id;
    link = { ...(await fx.link(acme)), organizationId: acme };
  });
  afterAll(() => env?.teardown());

  const install = (extra: Partial<SdkInstallJob> = {}): SdkInstallJob => ({
    organizationId: acme,
    appId: app,
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
    organizationId: acme,
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
    const click = await fx.click(link);
    const job = install({ clickId: click.id, linkId: link.id, matchType: 'clickId' });
    const saved = await repo.saveInstall(acme, job);
    expect(saved).toEqual({
      id: expect.any(String),
      installId: job.installId,
      appId: app,
      platform: 'ios',
      osVersion: '17.4',
      deviceModel: 'iPhone15,2',
      appVersion: '2.1.0',
      clickId: click.id,
      linkId: link.id,
      matchType: 'clickId',
      ambiguous: false,
      attributedAt: new Date('2030-05-01T10:00:00.000Z'),
      createdAt: new Date('2030-05-01T10:00:00.000Z'),
      shortCode: link.shortCode,
      projectId: null,
    });
    expect(await repo.saveInstall(acme, { ...job, linkId: null, clickId: null, platform: 'android' })).toEqual(saved);
    expect(await repo.installLinks(acme, [{ appId: app, installId: job.installId }])).toEqual([{ appId: app, installId: job.installId, linkId: link.id, clickId: click.id }]);
  });

  it('stores sessions and pixel events once; a pixel event takes the link of its click', async () => {
    const install1 = randomUUID();
    const open = { id: randomUUID(), organizationId: acme, appId: app, installId: install1, url: 'shop://p/1', openedAt: '2030-05-01T10:00:00.000Z' };
    await repo.saveSession(acme, open);
    await repo.saveSession(acme, open);
    expect(await env.prisma.appSession.findMany({ where: { installId: install1 } })).toMatchObject([{ id: open.id, url: 'shop://p/1' }]);

    const site = await new SdkFixtures(env.prisma).site(acme);
    const click = await fx.click(link);
    const event = pixel(site.id, { clickId: click.id });
    await repo.savePixelEvent(acme, event);
    await repo.savePixelEvent(acme, event);
    const stored = await env.prisma.pixelEvent.findMany({ where: { siteId: site.id } });
    expect(stored).toMatchObject([{ id: event.id, type: 'conversion', clickId: click.id, linkId: link.id, currency: 'EUR' }]);
    expect(Number(stored[0].value)).toBe(19.9);

    const at = new Date('2030-05-01T10:00:00Z');
    await repo.touchApps(acme, [app], at);
    await repo.touchApps(acme, [app], new Date(at.getTime() + 30_000));
    expect((await env.prisma.app.findUniqueOrThrow({ where: { id: app } })).lastSeenAt).toEqual(at);
    await repo.touchPixelSite(acme, site.id, at);
    expect((await env.prisma.pixelSite.findUniqueOrThrow({ where: { id: site.id } })).lastSeenAt).toEqual(at);
  });

  it("another organization's install, click, app and site answer as missing", async () => {
    const job = install();
    await repo.saveInstall(acme, job);
    expect(await repo.installLinks(other, [{ appId: app, installId: job.installId }])).toEqual([]);

    const theirSite = await new SdkFixtures(env.prisma).site(other);
    const myClick = await fx.click(link);
    const event = pixel(theirSite.id, { organizationId: other, clickId: myClick.id });
    await repo.savePixelEvent(other, event);
    expect(await env.prisma.pixelEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({ clickId: myClick.id, linkId: null });

    await repo.touchApps(other, [app], new Date('2031-01-01T00:00:00Z'));
    await repo.touchPixelSite(acme, theirSite.id, new Date('2031-01-01T00:00:00Z'));
    expect((await env.prisma.app.findUniqueOrThrow({ where: { id: app } })).lastSeenAt).not.toEqual(new Date('2031-01-01T00:00:00Z'));
    expect((await env.prisma.pixelSite.findUniqueOrThrow({ where: { id: theirSite.id } })).lastSeenAt).toBeNull();
  });

  it('a pixel event whose type is not one the enum knows is refused by the database (22P02)', async () => {
    const site = await new SdkFixtures(env.prisma).site(acme);
    expect(sqlState(await rejectionOf(repo.savePixelEvent(acme, pixel(site.id, { type: 'purchase' as 'conversion' }))))).toBe('22P02');
  });
});
