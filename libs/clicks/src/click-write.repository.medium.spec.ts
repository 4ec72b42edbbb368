import fc from 'fast-check';
import { Pool } from 'pg';
import { createPgPool, endPgPool, Tier } from '@dl/platform/db';
import { GeoIp } from '@dl/platform/geo';
import { ClickFixtures, createTestEnv, rawClick, TestEnv } from '@dl/testing';
import { ClickWriteRepository } from './click-write.repository';
import { EnrichedClick, enrichClick } from './enrich';

/** The columns insertClicks writes, read back under the EnrichedClick names. */
const READ = `SELECT id::text AS "id", organization_id::text AS "organizationId", link_id::text AS "linkId", clicked_at AS "clickedAt",
  ip_address AS "ipAddress", user_agent AS "userAgent", referrer, referrer_host AS "referrerHost", accept_language AS "acceptLanguage",
  language, device_type AS "deviceType", platform, browser, browser_version AS "browserVersion", os, os_version AS "osVersion",
  country_code AS "countryCode", country_name AS "countryName", region, city, timezone, latitude, longitude,
  utm_source AS "utmSource", utm_medium AS "utmMedium", utm_campaign AS "utmCampaign", utm_term AS "utmTerm", utm_content AS "utmContent",
  is_bot AS "isBot", visitor_hash AS "visitorHash", fingerprint, variant_index AS "variantIndex", rule_index AS "ruleIndex"
  FROM clicks WHERE id = ANY($1::uuid[]) ORDER BY id`;

describe(ClickWriteRepository.name, () => {
  let env: TestEnv;
  let repo: ClickWriteRepository;
  let geo: GeoIp;
  let link: { id: string; organizationId: string };
  let pg: Pool;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new ClickWriteRepository(env.config);
    pg = createPgPool(env.config.DATABASE_URL, { max: 1 });
    geo = GeoIp.city(env.config.GEOIP_DATABASE_PATH);
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    link = { id: (await fx.link(org.id)).id, organizationId: org.id };
  });
  afterAll(async () => {
    await repo?.onApplicationShutdown();
    if (pg) await endPgPool(pg);
    await env?.teardown();
  });

  const click = (over: Parameters<typeof rawClick>[1] = {}) => enrichClick(rawClick(link, over), geo);
  const insert = (clicks: EnrichedClick[]) => repo.transaction((tx) => repo.insertClicks(tx, clicks));
  const stored = async (clicks: EnrichedClick[]) => {
    const { rows } = await pg.query(READ, [clicks.map((c) => c.id)]);
    return rows as EnrichedClick[];
  };
  /** What a stored click reads back as: every field insertClicks writes (day is derived, not stored). */
  const asStored = (c: EnrichedClick) => {
    const { day: _day, ...fields } = c;
    return fields;
  };

  it('stores every field of every click exactly, whatever the text (tabs, newlines, backslashes, \\N, unicode)', async () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1 }),
      fc.string({ unit: fc.constantFrom('\\', '\t', '\n', '\r', 'N', '.', 'a', 'é', '日', '🎉', ' ') , minLength: 1, maxLength: 12 }),
      fc.constantFrom('\\N', '\\.', 'a\\tb', 'Łódź', '\\'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ ua: hostile, ref: hostile, utm: hostile, lang: hostile }), { minLength: 1, maxLength: 20 }), async (facts) => {
        const clicks = facts.map((f) =>
          click({ userAgent: f.ua, referrer: `https://example.com/${f.ref}`, acceptLanguage: f.lang, query: { utm_source: f.utm, utm_term: f.ref } }),
        );
        expect(await insert(clicks)).toEqual(clicks);
        const sorted = [...clicks].sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(await stored(clicks)).toEqual(sorted.map(asStored));
      }),
      { numRuns: 40 },
    );
  });

  it('a replay among new clicks: only the new ones are inserted and returned, the batch is not refused', async () => {
    const first = [click(), click(), click()];
    expect(await insert(first)).toEqual(first);
    const fresh = click();
    const replay = [first[1], fresh, first[0]];
    expect(await insert(replay)).toEqual([fresh]);
    expect(await insert(first)).toEqual([]);
    const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM clicks WHERE id = ANY($1::uuid[])', [[...first, fresh].map((c) => c.id)]);
    expect(rows[0].n).toBe(4);
  });

  it("existingLinks answers a link only for its own organization: another organization's claim is missing", async () => {
    const other = await new ClickFixtures(env.prisma).organization(Tier.PRO);
    const claimed = new Map([[link.id, new Set([link.organizationId, other.id])]]);
    const found = await repo.transaction((tx) => repo.existingLinks(tx, claimed));
    expect([...found.entries()].map(([id, orgs]) => [id, [...orgs]])).toEqual([[link.id, [link.organizationId]]]);
    const foreign = await repo.transaction((tx) => repo.existingLinks(tx, new Map([[link.id, new Set([other.id])]])));
    expect(foreign.size).toBe(0);
  });

  it('a click with a NUL fails the statement with 22021 and stores nothing of the batch (the caller bisects)', async () => {
    const good = click();
    const poisoned = click({ userAgent: 'evil\u0000agent' });
    await expect(insert([good, poisoned])).rejects.toMatchObject({ code: '22021' });
    expect(await stored([good, poisoned])).toEqual([]);
  });
});
