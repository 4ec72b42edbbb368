import request from 'supertest';
import { EXACT_UNIQUES_MAX_ROWS, LinkAnalyticsService } from '@dl/analytics';
import { ClickPipeline } from '@dl/clicks';
import { createApiApp } from '@dl/apps/api';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { Role, Tier } from '@dl/platform/db';
import { addMember, ClickFixtures, closeAll, createTestEnv, KNOWN_IPS, rawClick, RunningApp, seedOrganization, startApp, TestEnv, USER_AGENTS } from '@dl/testing';

const DAY = 24 * 3600 * 1000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

describe('GET /api/analytics/{links,clicks,projects,overview}', () => {
  let env: TestEnv, api: RunningApp, worker: RunningApp, fx: ClickFixtures, keyA: string, jwtA: string, viewerA: string, keyB: string;
  let orgA: { id: string };
  let orgB: { id: string };
  let project: { id: string };
  let projectB: { id: string };
  let l1: { id: string; shortCode: string };
  let l2: { id: string; shortCode: string };
  let l3: { id: string; shortCode: string };
  let lb: { id: string; shortCode: string };
  const now = Date.now();
  const today = isoDay(now);
  const twoDaysAgo = isoDay(now - 2 * DAY);
  const fortyDaysAgo = isoDay(now - 40 * DAY);
  let iphoneToday: ClickCapturedJob;

  const get = (path: string, key = keyA) => request(api.url).get(path).set('Authorization', `Bearer ${key}`);
  const bad = (message: string, validation: Record<string, string>) => ({ error: 'Bad Request', message, statusCode: 400, validation });

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    fx = new ClickFixtures(env.prisma);
    const seededA = await seedOrganization(env, { tier: Tier.PRO, name: 'Org A' });
    const seededB = await seedOrganization(env, { tier: Tier.PRO, name: 'Org B' });
    orgA = { id: seededA.organization.id };
    orgB = { id: seededB.organization.id };
    fx.useOwner(orgA.id, seededA.owner.user.id, seededA.template.id).useOwner(orgB.id, seededB.owner.user.id, seededB.template.id);
    keyA = seededA.owner.apiKey;
    jwtA = seededA.owner.jwt;
    viewerA = (await addMember(env, orgA.id, Role.VIEWER)).apiKey;
    keyB = seededB.owner.apiKey;
    project = await fx.project(orgA.id);
    projectB = await fx.project(orgB.id);
    l1 = await fx.link(orgA.id, { projectId: project.id, title: 'Spring sale' });
    l2 = await fx.link(orgA.id, { projectId: project.id, title: 'Newsletter' });
    l3 = await fx.link(orgA.id, { title: 'Inactive', isActive: false });
    lb = await fx.link(orgB.id, { projectId: projectB.id });
    api = await startApp(createApiApp, env.config);
    worker = await startApp(createWorkerApp, env.config);

    const at = (t: number, h = 0) => new Date(t - (t % DAY) + h * 3600 * 1000).toISOString();
    const a1 = { id: l1.id, organizationId: orgA.id };
    iphoneToday = rawClick(a1, {
      clickedAt: at(now, 0),
      ip: KNOWN_IPS.kettering,
      userAgent: USER_AGENTS.iPhone,
      referrer: 'https://news.example.org/post',
      query: { utm_source: 'newsletter', utm_campaign: 'spring' },
    });
    const clicks: ClickCapturedJob[] = [
      iphoneToday,
      // Same visitor again today: a click, not a new unique.
      rawClick(a1, { clickedAt: at(now, 0), ip: KNOWN_IPS.kettering, userAgent: USER_AGENTS.iPhone }),
      rawClick(a1, { clickedAt: at(now - 2 * DAY, 5), ip: KNOWN_IPS.poulsbo, userAgent: USER_AGENTS.windowsChrome }),
      rawClick(a1, { clickedAt: at(now - 2 * DAY, 6), ip: KNOWN_IPS.plymouth, userAgent: USER_AGENTS.iPad }),
      // Same visitor as today's iPhone, two days earlier.
      rawClick(a1, { clickedAt: at(now - 2 * DAY, 7), ip: KNOWN_IPS.kettering, userAgent: USER_AGENTS.iPhone }),
      rawClick(a1, { clickedAt: at(now - 40 * DAY, 8), ip: KNOWN_IPS.karlstad, userAgent: USER_AGENTS.macSafari }),
      rawClick(a1, { clickedAt: at(now, 0), userAgent: USER_AGENTS.googlebot }),
      rawClick({ id: l2.id, organizationId: orgA.id }, { clickedAt: at(now, 0), ip: KNOWN_IPS.karlstad, userAgent: USER_AGENTS.androidPhone }),
      rawClick({ id: lb.id, organizationId: orgB.id }, { clickedAt: at(now, 0), ip: KNOWN_IPS.poulsbo, userAgent: USER_AGENTS.windowsChrome }),
    ];
    await worker.app.get(ClickPipeline).store(clicks);
  });

  afterAll(() => closeAll(worker, api, env));

  describe('links/:linkId', () => {
    it('answers the full summary from rollups, bots excluded', async () => {
      const res = await get(`/api/analytics/links/${l1.id}`).expect(200);
      expect(res.body.clicksByDate).toHaveLength(30);
      expect(res.body.clicksByDate[29]).toEqual({ date: today, clicks: 2 });
      expect(res.body.clicksByDate[27]).toEqual({ date: twoDaysAgo, clicks: 3 });
      expect(res.body.clicksByDate[0]).toEqual({ date: isoDay(now - 29 * DAY), clicks: 0 });
      expect({ ...res.body, clicksByDate: undefined }).toEqual({
        totalClicks: 5,
        uniqueClicks: 3,
        clicksByDate: undefined,
        clicksByCountry: [
          { countryCode: 'GB', country: 'United Kingdom', clicks: 4 },
          { countryCode: 'US', country: 'United States', clicks: 1 },
        ],
        clicksByCity: [
          { city: 'Kettering', countryCode: 'GB', region: 'England', clicks: 3 },
          { city: 'Plymouth', countryCode: 'GB', region: 'England', clicks: 1 },
          { city: 'Poulsbo', countryCode: 'US', region: 'Washington', clicks: 1 },
        ],
        clicksByRegion: [
          { region: 'England', countryCode: 'GB', clicks: 4 },
          { region: 'Washington', countryCode: 'US', clicks: 1 },
        ],
        clicksByTimezone: [
          { timezone: 'Europe/London', clicks: 4 },
          { timezone: 'America/Los_Angeles', clicks: 1 },
        ],
        // A link without variants or rules (decisions §16).
        clicksByVariant: [],
        clicksByRule: [],
        clicksByDevice: [
          { device: 'mobile', clicks: 3 },
          { device: 'desktop', clicks: 1 },
          { device: 'tablet', clicks: 1 },
        ],
        clicksByPlatform: [
          { platform: 'iOS', clicks: 4 },
          { platform: 'Windows', clicks: 1 },
        ],
        // Conversions of the link (decisions §23): none here (conversions.e2e covers them).
        leads: 0,
        sales: 0,
        revenue: [],
      });
    });

    it('widens to 365 days and narrows to 1', async () => {
      const year = await get(`/api/analytics/links/${l1.id}?days=365`).expect(200);
      expect(year.body.totalClicks).toBe(6);
      expect(year.body.uniqueClicks).toBe(4);
      expect(year.body.clicksByDate).toHaveLength(365);
      expect(year.body.clicksByDate.find((d: { date: string }) => d.date === fortyDaysAgo)).toEqual({ date: fortyDaysAgo, clicks: 1 });
      expect(year.body.clicksByCountry).toContainEqual({ countryCode: 'SE', country: 'Sweden', clicks: 1 });
      const one = await get(`/api/analytics/links/${l1.id}?days=1`).expect(200);
      expect([one.body.totalClicks, one.body.uniqueClicks, one.body.clicksByDate]).toEqual([2, 1, [{ date: today, clicks: 2 }]]);
    });

    it('counts uniques as the sum of daily unique visitors when the window holds too many visitor-days', async () => {
      const service = api.app.get(LinkAnalyticsService);
      service.exactUniquesMaxRows = 4;
      try {
        // 5 visitor-days (the iPhone visitor on two days): above the bound.
        expect((await get(`/api/analytics/links/${l1.id}?days=365`).expect(200)).body.uniqueClicks).toBe(5);
        expect((await get(`/api/analytics/links/${l1.id}?days=30`).expect(200)).body.uniqueClicks).toBe(3);
      } finally {
        service.exactUniquesMaxRows = EXACT_UNIQUES_MAX_ROWS;
      }
    });

    it('is readable by a viewer and with a dashboard session', async () => {
      await get(`/api/analytics/links/${l1.id}`, viewerA).expect(200);
      expect((await get(`/api/analytics/links/${l1.id}`, jwtA).expect(200)).body.totalClicks).toBe(5);
    });

    // One refusal over HTTP; every rule of the queries: libs/analytics/src/analytics.dto.spec.ts.
    it('refuses days=366', async () => {
      const res = await get(`/api/analytics/links/${l1.id}?days=366`).expect(400);
      expect(res.body).toEqual(bad('Days must be between 1 and 365', { days: 'Must be between 1 and 365' }));
    });

    it('refuses unknown query parameters and malformed ids', async () => {
      const unknown = await get(`/api/analytics/links/${l1.id}?foo=1`).expect(400);
      expect(unknown.body).toEqual(bad('Validation error', { foo: 'Unknown field' }));
      const malformed = await get('/api/analytics/links/not-a-uuid').expect(400);
      expect(malformed.body).toEqual(bad('Validation error', { linkId: 'Must be a valid UUID' }));
    });

    it('answers 404 Link not found for a missing link and for another organization’s', async () => {
      const notFound = { error: 'Not Found', message: 'Link not found', statusCode: 404 };
      expect((await get('/api/analytics/links/00000000-0000-4000-8000-000000000000').expect(404)).body).toEqual(notFound);
      expect((await get(`/api/analytics/links/${lb.id}`).expect(404)).body).toEqual(notFound);
      expect((await get(`/api/analytics/links/${l1.id}`, keyB).expect(404)).body).toEqual(notFound);
    });

    it('needs a credential', async () => {
      const res = await request(api.url).get(`/api/analytics/links/${l1.id}`).expect(401);
      expect(res.body).toMatchObject({ error: 'Unauthorized', statusCode: 401 });
    });
  });

  describe('clicks/:linkId', () => {
    it('lists the latest non-bot clicks with every field of the click event', async () => {
      const res = await get(`/api/analytics/clicks/${l1.id}`).expect(200);
      expect(res.body).toHaveLength(6);
      const times = res.body.map((c: { clickedAt: string }) => c.clickedAt);
      expect([...times].sort().reverse()).toEqual(times);
      const click = res.body.find((c: { id: string }) => c.id === iphoneToday.id);
      expect(click).toEqual({
        id: iphoneToday.id,
        linkId: l1.id,
        clickedAt: iphoneToday.clickedAt,
        ipAddress: '81.2.69.142',
        userAgent: USER_AGENTS.iPhone,
        deviceType: 'mobile',
        platform: 'iOS',
        browser: 'Mobile Safari',
        browserVersion: '17.4',
        os: 'iOS',
        osVersion: '17.4.1',
        countryCode: 'GB',
        countryName: 'United Kingdom',
        region: 'England',
        city: 'Kettering',
        timezone: 'Europe/London',
        latitude: expect.any(Number),
        longitude: expect.any(Number),
        utmSource: 'newsletter',
        utmMedium: null,
        utmCampaign: 'spring',
        utmTerm: null,
        utmContent: null,
        referrer: 'https://news.example.org/post',
      });
      expect(click.latitude).toBeCloseTo(52.3966, 3);
      expect(res.body.some((c: { userAgent: string }) => c.userAgent === USER_AGENTS.googlebot)).toBe(false);
    });

    it('honours limit and its bounds', async () => {
      expect((await get(`/api/analytics/clicks/${l1.id}?limit=2`).expect(200)).body).toHaveLength(2);
      expect((await get(`/api/analytics/clicks/${l1.id}?limit=1000`).expect(200)).body).toHaveLength(6);
      const res = await get(`/api/analytics/clicks/${l1.id}?limit=1001`).expect(400);
      expect(res.body).toEqual(bad('Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }));
    });

    it('answers 404 for another organization’s link and 400 for a malformed id', async () => {
      expect((await get(`/api/analytics/clicks/${lb.id}`).expect(404)).body).toEqual({ error: 'Not Found', message: 'Link not found', statusCode: 404 });
      expect((await get('/api/analytics/clicks/123').expect(400)).body).toEqual(bad('Validation error', { linkId: 'Must be a valid UUID' }));
    });
  });

  describe('projects/:projectId', () => {
    it('sums the project’s links', async () => {
      const res = await get(`/api/analytics/projects/${project.id}`).expect(200);
      expect(res.body.clicksByDate).toHaveLength(30);
      expect(res.body.clicksByDate[29]).toEqual({ date: today, clicks: 3 });
      expect({ ...res.body, clicksByDate: undefined }).toEqual({
        totalClicks: 6,
        uniqueClicks: 4,
        clicksByDate: undefined,
        clicksByCountry: [
          { country: 'United Kingdom', clicks: 4 },
          { country: 'Sweden', clicks: 1 },
          { country: 'United States', clicks: 1 },
        ],
        clicksByDevice: [
          { device: 'mobile', clicks: 4 },
          { device: 'desktop', clicks: 1 },
          { device: 'tablet', clicks: 1 },
        ],
        clicksByPlatform: [
          { platform: 'iOS', clicks: 4 },
          { platform: 'Android', clicks: 1 },
          { platform: 'Windows', clicks: 1 },
        ],
      });
    });

    it('validates days and answers 404 Project not found across organizations', async () => {
      expect((await get(`/api/analytics/projects/${project.id}?days=400`).expect(400)).body).toEqual(
        bad('Days must be between 1 and 365', { days: 'Must be between 1 and 365' }),
      );
      const notFound = { error: 'Not Found', message: 'Project not found', statusCode: 404 };
      expect((await get(`/api/analytics/projects/${projectB.id}`).expect(404)).body).toEqual(notFound);
      expect((await get('/api/analytics/projects/00000000-0000-4000-8000-000000000000').expect(404)).body).toEqual(notFound);
      expect((await get('/api/analytics/projects/nope').expect(400)).body).toEqual(bad('Validation error', { projectId: 'Must be a valid UUID' }));
    });
  });

  describe('overview', () => {
    it('summarises the organization (decisions §8)', async () => {
      const res = await get('/api/analytics/overview').expect(200);
      expect(res.body.clicksByDate).toHaveLength(30);
      expect({ ...res.body, clicksByDate: undefined }).toEqual({
        totalLinks: 3,
        activeLinks: 2,
        totalClicks: 6,
        uniqueClicks: 4,
        clicksToday: 3,
        clicksByDate: undefined,
        topLinks: [
          { id: l1.id, shortCode: l1.shortCode, title: 'Spring sale', clicks: 5 },
          { id: l2.id, shortCode: l2.shortCode, title: 'Newsletter', clicks: 1 },
        ],
      });
      expect(l3.id).toBeDefined();
    });

    it('never mixes organizations, and validates days', async () => {
      const res = await get('/api/analytics/overview?days=7', keyB).expect(200);
      expect(res.body).toMatchObject({ totalLinks: 1, activeLinks: 1, totalClicks: 1, uniqueClicks: 1, clicksToday: 1 });
      expect(res.body.topLinks).toEqual([{ id: lb.id, shortCode: lb.shortCode, title: `Link ${lb.shortCode}`, clicks: 1 }]);
      expect((await get('/api/analytics/overview?days=0').expect(400)).body).toEqual(
        bad('Days must be between 1 and 365', { days: 'Must be between 1 and 365' }),
      );
    });
  });
});
