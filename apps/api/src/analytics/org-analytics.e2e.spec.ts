import request from 'supertest';
import { ClickPipeline } from '@dl/clicks';
import { createApiApp } from '@dl/apps/api';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { Role, Tier } from '@dl/platform/db';
import { addMember, ClickFixtures, createTestEnv, KNOWN_IPS, rawClick, RunningApp, seedOrganization, startApp, TestEnv, USER_AGENTS } from '@dl/testing';

/** A window in the past, so the answer does not depend on today. */
const WINDOW = 'from=2026-06-01&to=2026-06-10';

describe('GET /api/analytics (decisions §24)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let worker: RunningApp;
  let key: string;
  let viewer: string;
  let keyB: string;
  let l1: { id: string; shortCode: string };
  let l2: { id: string; shortCode: string };
  let lb: { id: string };
  let project: { id: string };
  /** Which of the window's clicks (by name) each filter selects: pairs must select the intersection. */
  let filters: Array<{ query: string; clicks: string[] }>;

  const get = (query: string, as = key) => request(api.url).get(`/api/analytics?${query}`).set('Authorization', `Bearer ${as}`);
  const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    const fx = new ClickFixtures(env.prisma);
    const a = await seedOrganization(env, { tier: Tier.PRO, name: 'Org A' });
    const b = await seedOrganization(env, { tier: Tier.PRO, name: 'Org B' });
    fx.useOwner(a.organization.id, a.owner.user.id, a.template.id).useOwner(b.organization.id, b.owner.user.id, b.template.id);
    key = a.owner.apiKey;
    keyB = b.owner.apiKey;
    viewer = (await addMember(env, a.organization.id, Role.VIEWER)).apiKey;
    project = await fx.project(a.organization.id);
    l1 = await fx.link(a.organization.id, { projectId: project.id, title: 'Spring sale' });
    l2 = await fx.link(a.organization.id, { title: 'Newsletter' });
    await env.prisma.link.update({ where: { id: l2.id }, data: { tags: ['Promo'] } });
    lb = await fx.link(b.organization.id);
    api = await startApp(createApiApp, env.config);
    worker = await startApp(createWorkerApp, env.config);

    const A1 = { id: l1.id, organizationId: a.organization.id };
    const A2 = { id: l2.id, organizationId: a.organization.id };
    const clicks: Record<string, ClickCapturedJob> = {
      // GB, mobile, iOS, Mobile Safari
      c1: rawClick(A1, {
        clickedAt: '2026-06-10T10:00:00.000Z',
        ip: KNOWN_IPS.kettering,
        userAgent: USER_AGENTS.iPhone,
        referrer: 'https://news.example.org/post',
        query: { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' },
      }),
      // The same visitor again that day: a click, not a unique.
      c2: rawClick(A1, { clickedAt: '2026-06-10T11:00:00.000Z', ip: KNOWN_IPS.kettering, userAgent: USER_AGENTS.iPhone }),
      // US, desktop, Windows, Chrome; variant 1
      c3: rawClick(A1, {
        clickedAt: '2026-06-09T05:00:00.000Z',
        ip: KNOWN_IPS.poulsbo,
        userAgent: USER_AGENTS.windowsChrome,
        referrer: 'https://www.google.com/',
        variantIndex: 1,
      }),
      // GB, tablet; rule 0
      c4: rawClick(A2, { clickedAt: '2026-06-09T06:00:00.000Z', ip: KNOWN_IPS.plymouth, userAgent: USER_AGENTS.iPad, query: { utm_source: 'newsletter' }, ruleIndex: 0 }),
      // SE, mobile, Android, Chrome: 23:30 UTC on the 8th is 01:30 on the 9th in Berlin (UTC+2 in June).
      c5: rawClick(A2, { clickedAt: '2026-06-08T23:30:00.000Z', ip: KNOWN_IPS.karlstad, userAgent: USER_AGENTS.androidPhone, referrer: 'https://news.example.org/' }),
      bot: rawClick(A1, { clickedAt: '2026-06-10T12:00:00.000Z', userAgent: USER_AGENTS.googlebot }),
      // The previous window (2026-05-22 to 2026-05-31).
      p1: rawClick(A1, { clickedAt: '2026-05-31T12:00:00.000Z', ip: KNOWN_IPS.karlstad, userAgent: USER_AGENTS.macSafari }),
      p2: rawClick(A2, { clickedAt: '2026-05-22T00:30:00.000Z', ip: KNOWN_IPS.karlstad, userAgent: USER_AGENTS.macSafari }),
      // Before both windows, and another organization's.
      old: rawClick(A1, { clickedAt: '2026-05-21T23:00:00.000Z', ip: KNOWN_IPS.kettering, userAgent: USER_AGENTS.iPhone }),
      other: rawClick({ id: lb.id, organizationId: b.organization.id }, { clickedAt: '2026-06-10T10:00:00.000Z', ip: KNOWN_IPS.kettering, userAgent: USER_AGENTS.iPhone }),
    };
    await worker.app.get(ClickPipeline).store(Object.values(clicks));

    filters = [
      { query: `linkId=${l1.id}`, clicks: ['c1', 'c2', 'c3'] },
      { query: `projectId=${project.id}`, clicks: ['c1', 'c2', 'c3'] },
      { query: 'tag=promo', clicks: ['c4', 'c5'] },
      { query: 'domain=', clicks: ['c1', 'c2', 'c3', 'c4', 'c5'] },
      { query: 'country=GB', clicks: ['c1', 'c2', 'c4'] },
      { query: 'city=Kettering', clicks: ['c1', 'c2'] },
      { query: 'device=mobile', clicks: ['c1', 'c2', 'c5'] },
      { query: 'os=Windows', clicks: ['c3'] },
      { query: 'browser=Chrome', clicks: ['c3', 'c5'] },
      { query: 'referrerHost=news.example.org', clicks: ['c1', 'c5'] },
      { query: 'utmSource=newsletter', clicks: ['c1', 'c4'] },
      { query: 'utmMedium=email', clicks: ['c1'] },
      { query: 'utmCampaign=spring', clicks: ['c1'] },
      { query: 'variant=1', clicks: ['c3'] },
      { query: 'rule=0', clicks: ['c4'] },
    ];
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await env?.teardown();
  });

  it('answers the whole window: totals, the previous window, every day, each list largest first (bots left out)', async () => {
    const res = await get(WINDOW, viewer).expect(200);
    expect(res.body.clicksByDate).toHaveLength(10);
    expect(res.body.clicksByDate.slice(7)).toEqual([
      { date: '2026-06-08', clicks: 1 },
      { date: '2026-06-09', clicks: 2 },
      { date: '2026-06-10', clicks: 2 },
    ]);
    expect({ ...res.body, clicksByDate: undefined }).toEqual({
      totalClicks: 5,
      uniqueClicks: 4,
      previous: { totalClicks: 2, uniqueClicks: 2 },
      clicksByDate: undefined,
      topLinks: [
        { linkId: l1.id, shortCode: l1.shortCode, title: 'Spring sale', clicks: 3 },
        { linkId: l2.id, shortCode: l2.shortCode, title: 'Newsletter', clicks: 2 },
      ],
      clicksByCountry: [
        { countryCode: 'GB', country: 'United Kingdom', clicks: 3 },
        { countryCode: 'SE', country: 'Sweden', clicks: 1 },
        { countryCode: 'US', country: 'United States', clicks: 1 },
      ],
      clicksByCity: [
        { city: 'Kettering', countryCode: 'GB', region: 'England', clicks: 2 },
        { city: 'Plymouth', countryCode: 'GB', region: 'England', clicks: 1 },
        { city: 'Karlstad', countryCode: 'SE', region: 'Värmland County', clicks: 1 },
        { city: 'Poulsbo', countryCode: 'US', region: 'Washington', clicks: 1 },
      ],
      clicksByDevice: [
        { device: 'mobile', clicks: 3 },
        { device: 'desktop', clicks: 1 },
        { device: 'tablet', clicks: 1 },
      ],
      clicksByOs: [
        { value: 'iOS', clicks: 3 },
        { value: 'Android', clicks: 1 },
        { value: 'Windows', clicks: 1 },
      ],
      clicksByBrowser: [
        { value: 'Mobile Safari', clicks: 3 },
        { value: 'Chrome', clicks: 2 },
      ],
      clicksByReferrer: [
        { value: 'news.example.org', clicks: 2 },
        { value: 'www.google.com', clicks: 1 },
      ],
      clicksByUtmSource: [{ value: 'newsletter', clicks: 2 }],
      clicksByUtmMedium: [{ value: 'email', clicks: 1 }],
      clicksByUtmCampaign: [{ value: 'spring', clicks: 1 }],
    });
  });

  it('applies each filter alone, and every pair of them as the intersection', async () => {
    const count = async (query: string) => (await get(`${WINDOW}&${query}`).expect(200)).body.totalClicks as number;
    for (const f of filters) expect([f.query, await count(f.query)]).toEqual([f.query, f.clicks.length]);
    for (let i = 0; i < filters.length; i++) {
      for (let j = i + 1; j < filters.length; j++) {
        const both = filters[i].clicks.filter((c) => filters[j].clicks.includes(c)).length;
        const query = `${filters[i].query}&${filters[j].query}`;
        expect([query, await count(query)]).toEqual([query, both]);
      }
    }
  });

  it('filters the lists and the previous window alike; bots=include counts bots', async () => {
    const res = await get(`${WINDOW}&country=GB&device=mobile`).expect(200);
    expect(res.body).toMatchObject({
      totalClicks: 2,
      uniqueClicks: 1,
      previous: { totalClicks: 0, uniqueClicks: 0 },
      clicksByCity: [{ city: 'Kettering', countryCode: 'GB', region: 'England', clicks: 2 }],
      clicksByReferrer: [{ value: 'news.example.org', clicks: 1 }],
      topLinks: [{ linkId: l1.id, clicks: 2 }],
    });
    expect((await get(`${WINDOW}&browser=Safari`).expect(200)).body.previous).toEqual({ totalClicks: 2, uniqueClicks: 2 });
    expect((await get(`${WINDOW}&bots=include`).expect(200)).body.totalClicks).toBe(6);
  });

  it('counts days in tz: a click at 23:30 UTC moves to the next day in Berlin, and the window moves with the zone', async () => {
    const utc = (await get(`${WINDOW}&linkId=${l2.id}`).expect(200)).body.clicksByDate.slice(7);
    expect(utc).toEqual([
      { date: '2026-06-08', clicks: 1 },
      { date: '2026-06-09', clicks: 1 },
      { date: '2026-06-10', clicks: 0 },
    ]);
    const berlin = (await get(`${WINDOW}&linkId=${l2.id}&tz=Europe/Berlin`).expect(200)).body.clicksByDate.slice(7);
    expect(berlin).toEqual([
      { date: '2026-06-08', clicks: 0 },
      { date: '2026-06-09', clicks: 2 },
      { date: '2026-06-10', clicks: 0 },
    ]);
    // 00:30 UTC on May 22 is still May 21 in New York: out of the previous window there.
    expect((await get(`${WINDOW}&linkId=${l2.id}&tz=America/New_York`).expect(200)).body.previous.totalClicks).toBe(0);
    expect((await get(`${WINDOW}&linkId=${l2.id}`).expect(200)).body.previous.totalClicks).toBe(1);
  });

  it('answers an unknown value, a foreign link and repeated links as data, never an error', async () => {
    const empty = (await get(`${WINDOW}&country=GB&city=Atlantis`).expect(200)).body;
    expect(empty).toMatchObject({ totalClicks: 0, uniqueClicks: 0, topLinks: [], clicksByCountry: [] });
    expect((await get(`${WINDOW}&referrerHost=nowhere.example`).expect(200)).body.totalClicks).toBe(0);
    expect((await get(`${WINDOW}&linkId=${lb.id}`).expect(200)).body).toMatchObject({ totalClicks: 0, topLinks: [] });
    const repeated = Array.from({ length: 100 }, () => `linkId=${l1.id}`).join('&');
    expect((await get(`${WINDOW}&${repeated}`).expect(200)).body.totalClicks).toBe(3);
    // Org B sees only its own click.
    expect((await get(WINDOW, keyB).expect(200)).body.totalClicks).toBe(1);
  });

  it('refuses a bad window, zone or typed filter with 400 naming the field', async () => {
    await get('from=2026-06-10&to=2026-06-01').expect(400, bad({ from: 'Must not be after to' }));
    await get('from=2025-01-01&to=2026-01-01').expect(400, bad({ to: 'The window must be at most 365 days' }));
    await get('from=2025-01-02&to=2026-01-01').expect(200);
    await get('from=2026-02-30&to=2026-03-01').expect(400, bad({ from: 'Must be a date (YYYY-MM-DD)' }));
    await get('from=2026-02-01').expect(400, bad({ from: 'Needs to as well' }));
    await get(`days=7&${WINDOW}`).expect(400, bad({ days: 'Use either days or from and to' }));
    await get('days=366').expect(400, { error: 'Bad Request', message: 'Days must be between 1 and 365', statusCode: 400, validation: { days: 'Must be between 1 and 365' } });
    await get('tz=Mars/Olympus').expect(400, bad({ tz: 'Must be an IANA time zone' }));
    await get('country=XX').expect(400, bad({ country: 'Must be an ISO 3166-1 alpha-2 country code' }));
    await get('device=phone').expect(400, bad({ device: 'Must be mobile, desktop or tablet' }));
    await get('variant=10').expect(400, bad({ variant: 'Must be between 0 and 9' }));
    await get('linkId=nope').expect(400, bad({ linkId: 'Must be up to 100 valid UUIDs' }));
    const distinct = Array.from({ length: 101 }, (_, i) => `linkId=00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join('&');
    await get(distinct).expect(400, bad({ linkId: 'Must be up to 100 valid UUIDs' }));
    await get('bots=yes').expect(400, bad({ bots: 'Must be include' }));
  });

  it('link analytics take the same filters and tz, from the cube', async () => {
    const link = (id: string, query: string) => request(api.url).get(`/api/analytics/links/${id}?days=365&${query}`).set('Authorization', `Bearer ${key}`);
    const gb = (await link(l1.id, 'country=GB').expect(200)).body;
    expect({ ...gb, clicksByDate: undefined }).toEqual({
      totalClicks: 3,
      uniqueClicks: 2,
      clicksByDate: undefined,
      clicksByCountry: [{ countryCode: 'GB', country: 'United Kingdom', clicks: 3 }],
      clicksByCity: [{ city: 'Kettering', countryCode: 'GB', region: 'England', clicks: 3 }],
      clicksByRegion: [{ region: 'England', countryCode: 'GB', clicks: 3 }],
      clicksByTimezone: [{ timezone: 'Europe/London', clicks: 3 }],
      clicksByDevice: [{ device: 'mobile', clicks: 3 }],
      clicksByPlatform: [{ platform: 'iOS', clicks: 3 }],
      clicksByVariant: [],
      clicksByRule: [],
      // Conversions of the link (decisions §23): none here.
      leads: 0,
      sales: 0,
      revenue: [],
    });
    expect(gb.clicksByDate).toHaveLength(365);
    // The same visitor on two days: two daily uniques.
    expect(gb.clicksByDate.filter((d: { clicks: number }) => d.clicks)).toEqual([
      { date: '2026-05-21', clicks: 1 },
      { date: '2026-06-10', clicks: 2 },
    ]);
    expect((await link(l1.id, 'device=desktop').expect(200)).body.clicksByVariant).toEqual([{ variant: 1, url: null, clicks: 1 }]);
    const berlin = (await link(l2.id, 'tz=Europe/Berlin').expect(200)).body.clicksByDate.filter((d: { clicks: number }) => d.clicks);
    expect(berlin).toEqual([
      { date: '2026-05-22', clicks: 1 },
      { date: '2026-06-09', clicks: 2 },
    ]);
    const utc = (await link(l2.id, '').expect(200)).body.clicksByDate.filter((d: { clicks: number }) => d.clicks);
    expect(utc).toEqual([
      { date: '2026-05-22', clicks: 1 },
      { date: '2026-06-08', clicks: 1 },
      { date: '2026-06-09', clicks: 1 },
    ]);
    expect((await link(l1.id, `linkId=${l2.id}`).expect(200)).body.totalClicks).toBe(0);
    await link(l1.id, 'tz=Nowhere/City').expect(400, bad({ tz: 'Must be an IANA time zone' }));
    await link(lb.id, 'country=GB').expect(404);
  });

  it('defaults to the last 30 days in tz', async () => {
    const res = await get('tz=Pacific/Kiritimati').expect(200);
    expect(res.body.clicksByDate).toHaveLength(30);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    expect(res.body.clicksByDate[29].date).toBe(today);
  });
});
