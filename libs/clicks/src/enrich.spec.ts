import { enrichClick, referrerHost, visitorHash } from './enrich';
import { GeoIp } from '@dl/platform/geo';
import { buildRollupRows, buildVisitorRows, linkClickCounts, sourceOf } from './rollups';
import { deviceTypeOf, parseUserAgent, platformOf } from './user-agent';
import { USER_AGENTS } from '@dl/testing';

const org = '00000000-0000-4000-8000-000000000001';
const link = '00000000-0000-4000-8000-0000000000aa';
const raw = (over: Record<string, unknown> = {}) => ({
  id: '00000000-0000-4000-8000-000000000101',
  linkId: link,
  organizationId: org,
  clickedAt: '2026-11-20T23:59:59.999Z',
  ip: '81.2.69.142',
  userAgent: USER_AGENTS.iPhone,
  referrer: null,
  acceptLanguage: 'en-GB',
  query: {},
  ...over,
});

describe('click enrichment', () => {
  const geo = GeoIp.city(undefined);

  it('maps operating systems to platforms and device types', () => {
    expect([platformOf('iOS'), platformOf('Android'), platformOf('Windows'), platformOf('Mac OS'), platformOf('Ubuntu'), platformOf('Chromium OS'), platformOf(undefined)]).toEqual(
      ['iOS', 'Android', 'Windows', 'macOS', 'Linux', null, null],
    );
    expect([deviceTypeOf(undefined), deviceTypeOf('mobile'), deviceTypeOf('tablet'), deviceTypeOf('smarttv'), deviceTypeOf('wearable')]).toEqual(
      ['desktop', 'mobile', 'tablet', 'desktop', 'mobile'],
    );
    expect(parseUserAgent(USER_AGENTS.androidPhone)).toEqual({
      deviceType: 'mobile',
      platform: 'Android',
      browser: 'Chrome',
      browserVersion: '124.0.6367.113',
      os: 'Android',
      osVersion: '14',
    });
    expect(parseUserAgent(null)).toMatchObject({ deviceType: 'desktop', platform: null, browser: null });
  });

  it('keeps only http(s) referrer hosts', () => {
    expect(referrerHost('https://WWW.Example.com/a?b')).toBe('www.example.com');
    expect(referrerHost('android-app://com.google.android.gm')).toBeNull();
    expect(referrerHost('not a url')).toBeNull();
  });

  it('salts visitor hashes per organization', () => {
    expect(visitorHash(org, '1.2.3.4', 'ua')).not.toBe(visitorHash('00000000-0000-4000-8000-000000000002', '1.2.3.4', 'ua'));
    expect(visitorHash(org, '1.2.3.4', 'ua')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('derives the UTC day, the geography and the fingerprint', () => {
    const c = enrichClick(raw(), geo);
    expect(c).toMatchObject({ day: '2026-11-20', countryCode: 'GB', city: 'Kettering', platform: 'iOS', language: 'en', isBot: false });
    expect(c.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(enrichClick(raw({ clickedAt: 'garbage' }), geo, new Date('2026-01-02T03:04:05Z')).day).toBe('2026-01-02');
    expect(enrichClick(raw({ ip: null }), geo)).toMatchObject({ countryCode: null, fingerprint: null });
    expect(enrichClick(raw({ userAgent: '  ' }), geo).isBot).toBe(true);
  });

  it('rolls clicks up by dimension, bots only under bot, sorted and aggregated', () => {
    const human = enrichClick(raw(), geo);
    const again = enrichClick(raw({ id: '00000000-0000-4000-8000-000000000102' }), geo);
    const bot = enrichClick(raw({ id: '00000000-0000-4000-8000-000000000103', userAgent: USER_AGENTS.googlebot }), geo);
    const visitors = buildVisitorRows([human, again, bot]);
    expect(visitors).toHaveLength(1);
    const rows = buildRollupRows([human, again, bot], visitors);
    const get = (d: string, v = '') => rows.find((r) => r.dimension === d && r.value === v)?.clicks;
    expect([get('total'), get('bot'), get('visitors'), get('country', 'GB'), get('source', 'Direct')]).toEqual([2, 1, 1, 2, 2]);
    const keys = rows.map((r) => `${r.linkId}\u0000${r.day}\u0000${r.dimension}\u0000${r.value}`);
    expect([...keys].sort()).toEqual(keys);
    expect(linkClickCounts([human, again, bot])).toEqual([{ linkId: link, clicks: 2 }]);
    expect(sourceOf({ referrerHost: null, utmSource: 'mail' })).toBe('mail');
  });
});
