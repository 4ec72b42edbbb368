import { CUBE_COLUMNS, cubeCopyBytes, cubeCopyLine } from './click-cube';
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

const lines = (bytes: Buffer) => bytes.toString('utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
/** hour, device, is_bot, sample, clicks, visitors of each line. */
const summary = (bytes: Buffer) => lines(bytes).map((f) => [f[1], f[8], f[3], f[18], f[19], f[20]]);

describe('cubeCopyBytes', () => {
  it('writes a row per click in its UTC hour; the first click of a newly seen daily visitor counts one visitor, bots none', () => {
    const bytes = cubeCopyBytes(
      [
        click({ id: 'a' }),
        click({ id: 'b', clickedAt: new Date('2026-03-01T10:59:59Z') }),
        click({ id: 'c', clickedAt: new Date('2026-03-01T11:00:00Z') }),
        click({ id: 'd', deviceType: 'desktop', visitorHash: 'ff02' }),
        click({ id: 'e', isBot: true, visitorHash: 'ff02' }),
      ],
      [
        { organizationId: ORG, linkId: LINK, day: '2026-03-01', visitorHash: '40aa' },
        { organizationId: ORG, linkId: LINK, day: '2026-03-01', visitorHash: 'ff02' },
      ],
    );
    expect(summary(bytes)).toEqual([
      ['2026-03-01T10:00:00.000Z', 'mobile', 'f', '64', '1', '1'],
      ['2026-03-01T10:00:00.000Z', 'mobile', 'f', '64', '1', '0'],
      ['2026-03-01T11:00:00.000Z', 'mobile', 'f', '64', '1', '0'],
      ['2026-03-01T10:00:00.000Z', 'desktop', 'f', '255', '1', '1'],
      ['2026-03-01T10:00:00.000Z', 'mobile', 't', '255', '1', '0'],
    ]);
  });

  it('a visitor already seen that day (not among the new ones) adds a click, no visitor', () => {
    expect(summary(cubeCopyBytes([click({ id: 'a' })], []))).toEqual([['2026-03-01T10:00:00.000Z', 'mobile', 'f', '64', '1', '0']]);
  });

  it('writes COPY text lines: \\N for null, escaped tabs, in CUBE_COLUMNS order', () => {
    const line = cubeCopyLine(click({ region: null, utmCampaign: 'a\tb', variantIndex: 2 }), '2026-03-01T10:00:00.000Z', '1');
    expect(line).toBe(
      [ORG, '2026-03-01T10:00:00.000Z', LINK, 'f', 'DE', '\\N', 'Berlin', 'Europe/Berlin', 'mobile', 'iOS', 'iOS', 'Safari', 'news.example',
        'newsletter', '\\N', 'a\\tb', '2', '\\N', '64', '1', '1'].join('\t') + '\n',
    );
    expect(CUBE_COLUMNS.split(',')).toHaveLength(21);
  });
});
