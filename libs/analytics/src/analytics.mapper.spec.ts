import { buildRollupRows, enrichClick, RollupDimension } from '@dl/clicks';
import { GeoIp } from '@dl/platform/geo';
import { groupDimensions, toLinkAnalyticsResponse } from './analytics.mapper';
import { USER_AGENTS } from '@dl/testing';

describe('link analytics: variants and rules (decisions §16)', () => {
  const geo = GeoIp.city(undefined);
  const click = (n: number, over: Record<string, unknown>) =>
    enrichClick(
      {
        id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        linkId: '00000000-0000-4000-8000-0000000000aa',
        organizationId: '00000000-0000-4000-8000-000000000001',
        clickedAt: '2026-11-20T12:00:00.000Z',
        ip: '81.2.69.142',
        userAgent: USER_AGENTS.iPhone,
        referrer: null,
        acceptLanguage: 'en',
        query: {},
        ...over,
      },
      geo,
    );

  it('variant and rule indexes travel from the edge job to the rollups and out as clicksByVariant / clicksByRule', () => {
    const clicks = [
      click(1, { variantIndex: 0 }),
      click(2, { variantIndex: 1 }),
      click(3, { variantIndex: 1 }),
      click(4, { ruleIndex: 2 }),
      click(5, {}),
      click(6, { variantIndex: 'x', ruleIndex: -1 }),
    ];
    expect(clicks.map((c) => [c.variantIndex, c.ruleIndex])).toEqual([[0, null], [1, null], [1, null], [null, 2], [null, null], [null, null]]);
    const rows = buildRollupRows(clicks).filter((r) => !r.dimension.startsWith('month:'));
    const dims = groupDimensions(rows.map((r) => ({ dimension: r.dimension, value: r.value, clicks: r.clicks })));
    expect(dims.get(RollupDimension.variant)?.map((r) => [r.value, r.clicks])).toEqual([['0', 1], ['1', 2]]);
    const res = toLinkAnalyticsResponse(dims, [], 0, {
      variants: [{ url: 'https://a.example' }, { url: 'https://b.example' }, { url: 'https://c.example' }],
      hasRules: true,
    });
    expect(res.clicksByVariant).toEqual([
      { variant: 0, url: 'https://a.example', clicks: 1 },
      { variant: 1, url: 'https://b.example', clicks: 2 },
      { variant: 2, url: 'https://c.example', clicks: 0 },
    ]);
    expect(res.clicksByRule).toEqual([{ rule: 2, clicks: 1 }, { rule: null, clicks: 5 }]);
    const plain = toLinkAnalyticsResponse(groupDimensions([]), [], 0);
    expect([plain.clicksByVariant, plain.clicksByRule]).toEqual([[], []]);
  });
});
