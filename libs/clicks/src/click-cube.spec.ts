import { buildCubeRows, cubeCopyLine } from './click-cube';
import { EnrichedClick } from './enrich';

const ORG = '00000000-0000-4000-8000-000000000001';
const LINK = '00000000-0000-4000-8000-000000000002';

function click(overrides: Partial<EnrichedClick>): EnrichedClick {
  return {
    id: 'c',
    organizationId: ORG,
    linkId: LINK,
    clickedAt: new Date('2026-03-01T10:15:00Z'),
    day: '2026-03-01',
    ipAddress: null,
    userAgent: null,
    referrer: null,
    referrerHost: 'news.example',
    acceptLanguage: null,
    language: null,
    deviceType: 'mobile',
    platform: 'iOS',
    browser: 'Safari',
    browserVersion: null,
    os: 'iOS',
    osVersion: null,
    utmSource: 'newsletter',
    utmMedium: null,
    utmCampaign: null,
    utmTerm: null,
    utmContent: null,
    isBot: false,
    visitorHash: '40aa',
    fingerprint: null,
    variantIndex: null,
    ruleIndex: null,
    countryCode: 'DE',
    countryName: 'Germany',
    region: 'Berlin',
    city: 'Berlin',
    timezone: 'Europe/Berlin',
    latitude: null,
    longitude: null,
    ...overrides,
  } as EnrichedClick;
}

describe('buildCubeRows', () => {
  it('groups clicks by hour and every dimension; the first click of a newly seen daily visitor counts one visitor', () => {
    const rows = buildCubeRows(
      [
        click({ id: 'a' }),
        click({ id: 'b', clickedAt: new Date('2026-03-01T10:59:59Z') }),
        click({ id: 'c', clickedAt: new Date('2026-03-01T11:00:00Z') }),
        click({ id: 'd', deviceType: 'desktop', visitorHash: 'v2' }),
        click({ id: 'e', isBot: true }),
      ],
      [
        { organizationId: ORG, linkId: LINK, day: '2026-03-01', visitorHash: '40aa' },
        { organizationId: ORG, linkId: LINK, day: '2026-03-01', visitorHash: 'v2' },
      ],
    );
    expect(rows.map((r) => [r.hour, r.deviceType, r.isBot, r.clicks, r.visitors])).toEqual([
      ['2026-03-01T10:00:00.000Z', 'mobile', false, 2, 1],
      ['2026-03-01T11:00:00.000Z', 'mobile', false, 1, 0],
      ['2026-03-01T10:00:00.000Z', 'desktop', false, 1, 1],
      ['2026-03-01T10:00:00.000Z', 'mobile', true, 1, 0],
    ]);
  });

  it('a visitor already seen that day (not among the new ones) adds clicks, no visitor; null facts stay apart from text', () => {
    const rows = buildCubeRows([click({ id: 'a', city: null }), click({ id: 'b', city: 'null' })], []);
    expect(rows.map((r) => [r.city, r.clicks, r.visitors])).toEqual([
      [null, 1, 0],
      ['null', 1, 0],
    ]);
  });

  it('writes COPY text lines: \\N for null, escaped tabs', () => {
    const [row] = buildCubeRows([click({ region: null, utmCampaign: 'a\tb', variantIndex: 2 })], []);
    expect(cubeCopyLine(row)).toBe(
      [ORG, '2026-03-01T10:00:00.000Z', LINK, 'f', 'DE', '\\N', 'Berlin', 'Europe/Berlin', 'mobile', 'iOS', 'iOS', 'Safari', 'news.example',
        'newsletter', '\\N', 'a\\tb', '2', '\\N', '64', '1', '0'].join('\t') + '\n',
    );
  });
});
