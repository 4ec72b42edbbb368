import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CLICK_EXPORT_CSV_HEADER, EXPORT_PAGE } from '@dl/analytics';
import { bad, forbidden, LinksWorld, linksWorld, notFound } from '../links/test/links-setup';

const DAY = 86_400_000;

/** Reads a CSV (RFC 4180: quoted cells may hold commas, quotes and line breaks) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** GET /api/analytics/clicks/:linkId/export (decisions §16): every raw click of the window, streamed, CSV-safe. */
describe('analytics: click export', () => {
  let w: LinksWorld;
  let linkId: string;
  let otherLinkId: string;
  const total = EXPORT_PAGE + 501; // crosses a page boundary
  const hostileUa = '=HYPERLINK("https://evil.example","x")';
  const hostileReferrer = 'https://r.example/a,b "quoted"\nnext line';

  beforeAll(async () => {
    w = await linksWorld();
    const make = async () => (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/x' }).expect(201)).body.id;
    linkId = await make();
    otherLinkId = await make();
    const base = {
      organizationId: w.a.organization.id,
      linkId,
      visitorHash: 'v',
    };
    const start = Date.now() - 2 * DAY;
    await w.env.prisma.click.createMany({
      data: [
        ...Array.from({ length: total - 3 }, (_, i) => ({
          ...base,
          id: randomUUID(),
          clickedAt: new Date(start + i * 1000),
          ipAddress: `198.51.100.${i % 250}`,
          countryCode: 'US',
          deviceType: 'desktop',
        })),
        { ...base, id: randomUUID(), clickedAt: new Date(Date.now() - 60_000), userAgent: hostileUa, referrer: hostileReferrer, variantIndex: 1, ruleIndex: null },
        { ...base, id: randomUUID(), clickedAt: new Date(Date.now() - 50_000), isBot: true, userAgent: 'Googlebot/2.1', ruleIndex: 3, variantIndex: null },
        { ...base, id: randomUUID(), clickedAt: new Date(Date.now() - 40_000), latitude: 51.5, longitude: -0.12, utmSource: '+cmd', variantIndex: 0, ruleIndex: 0 },
        // Outside a 7-day window, and another link's click: never exported.
        { ...base, id: randomUUID(), clickedAt: new Date(Date.now() - 20 * DAY), userAgent: 'old' },
        { ...base, linkId: otherLinkId, id: randomUUID(), clickedAt: new Date(), userAgent: 'other link' },
      ],
    });
  });
  afterAll(() => w?.close());

  const exportOf = (query: string, key = w.keyA) =>
    request(w.api.url).get(`/api/analytics/clicks/${linkId}/export${query}`).set('Authorization', `Bearer ${key}`).buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => done(null, text));
    });

  it('CSV: a header, every click of the window oldest first (bots included, flagged), variant and rule columns, formula-safe cells', async () => {
    const res = await exportOf('?format=csv&days=7').expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="clicks-${linkId}-7d.csv"`);
    const rows = parseCsv(res.body as string);
    expect(rows[0].join(',')).toBe(CLICK_EXPORT_CSV_HEADER);
    const header = rows[0];
    const data = rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(data).toHaveLength(total);
    expect(new Set(data.map((d) => d.id)).size).toBe(total);
    const times = data.map((d) => Date.parse(d.clickedAt));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(data.every((d) => d.linkId === linkId)).toBe(true);
    const [hostile, bot, last] = data.slice(-3);
    expect(hostile).toMatchObject({ userAgent: `'${hostileUa}`, referrer: hostileReferrer, variantIndex: '1', ruleIndex: '', isBot: 'false' });
    expect(bot).toMatchObject({ userAgent: 'Googlebot/2.1', isBot: 'true', ruleIndex: '3', variantIndex: '' });
    expect(last).toMatchObject({ latitude: '51.5', longitude: '-0.12', utmSource: "'+cmd", variantIndex: '0', ruleIndex: '0' });
    expect(data[0]).toMatchObject({ ipAddress: '198.51.100.0', countryCode: 'US', deviceType: 'desktop', userAgent: '' });
    expect(res.body as string).not.toMatch(/other link|,old,/);
  });

  it('JSON (the default): an array of click events with isBot, variantIndex and ruleIndex; days narrows the window', async () => {
    const res = await exportOf('?days=1').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="clicks-${linkId}-1d.json"`);
    const clicks = JSON.parse(res.body as string) as Array<Record<string, unknown>>;
    // Today only (UTC): the three recent clicks, plus any seeded click that fell on today.
    const startOfToday = Date.parse(new Date().toISOString().slice(0, 10));
    expect(clicks.every((c) => Date.parse(c.clickedAt as string) >= startOfToday)).toBe(true);
    const hostile = clicks.find((c) => c.userAgent === hostileUa);
    expect(hostile).toEqual({
      id: expect.any(String),
      linkId,
      clickedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      ipAddress: null,
      userAgent: hostileUa,
      referrer: hostileReferrer,
      deviceType: null,
      platform: null,
      browser: null,
      browserVersion: null,
      os: null,
      osVersion: null,
      countryCode: null,
      countryName: null,
      region: null,
      city: null,
      timezone: null,
      latitude: null,
      longitude: null,
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      utmTerm: null,
      utmContent: null,
      isBot: false,
      variantIndex: 1,
      ruleIndex: null,
    });
    const all = JSON.parse((await exportOf('?days=30').expect(200)).body as string) as unknown[];
    expect(all).toHaveLength(total + 1);
    const empty = await request(w.api.url).get(`/api/analytics/clicks/${otherLinkId}/export?days=1&format=json`).set('Authorization', `Bearer ${w.keyA}`).expect(200);
    expect(empty.body).toHaveLength(1);
  });

  it('Admin and Owner may export; Member and Viewer 403; another organization 404; bad values 400', async () => {
    await exportOf('?format=csv', w.adminA).expect(200);
    for (const key of [w.memberA, w.viewerA]) {
      const res = await request(w.api.url).get(`/api/analytics/clicks/${linkId}/export`).set('Authorization', `Bearer ${key}`).expect(403);
      expect(res.body).toEqual(forbidden(res.body.message));
    }
    const foreign = await request(w.api.url).get(`/api/analytics/clicks/${linkId}/export?format=csv`).set('Authorization', `Bearer ${w.keyB}`).expect(404);
    expect(foreign.body).toEqual(notFound('Link not found'));
    const get = (path: string) => request(w.api.url).get(path).set('Authorization', `Bearer ${w.keyA}`);
    expect((await get(`/api/analytics/clicks/${linkId}/export?format=xml`).expect(400)).body).toEqual(bad('Validation error', { format: 'Must be json or csv' }));
    expect((await get(`/api/analytics/clicks/${linkId}/export?days=366`).expect(400)).body).toEqual(
      bad('Days must be between 1 and 365', { days: 'Must be between 1 and 365' }),
    );
    expect((await get('/api/analytics/clicks/not-a-uuid/export').expect(400)).body).toEqual(bad('Validation error', { linkId: 'Must be a valid UUID' }));
    expect((await get(`/api/analytics/clicks/${randomUUID()}/export`).expect(404)).body).toEqual(notFound('Link not found'));
  });
});
