import { ValidationMap } from '@dl/platform/http';
import { isCurrencyCode } from './currencies';
import { revenueFields } from './event-rules';
import { APP_TOKEN_PATTERN, generateAppToken, generateSiteKey, scopedUuid, SITE_KEY_PATTERN, tokenPrefix } from './tokens';

describe(revenueFields.name, () => {
  it('ignores events not named revenue', () => {
    const v: ValidationMap = {};
    expect(revenueFields('purchase', { revenue: 'x' }, v)).toEqual({ revenue: null, currency: null });
    expect(v).toEqual({});
  });

  it('accepts a number and an ISO 4217 code', () => {
    const v: ValidationMap = {};
    expect(revenueFields('revenue', { revenue: 4.99, currency: 'JPY' }, v)).toEqual({ revenue: 4.99, currency: 'JPY' });
    expect(v).toEqual({});
  });

  it.each([
    [{ revenue: '4.99', currency: 'USD' }, { 'properties.revenue': 'Must be a number' }],
    [{ revenue: Number.NaN, currency: 'USD' }, { 'properties.revenue': 'Must be a number' }],
    [{ currency: 'USD' }, { 'properties.revenue': 'Must be a number' }],
    [{ revenue: 1, currency: 'usd' }, { 'properties.currency': 'Must be an ISO 4217 currency code' }],
    [{ revenue: 1, currency: 'ABC' }, { 'properties.currency': 'Must be an ISO 4217 currency code' }],
    [undefined, { 'properties.revenue': 'Must be a number', 'properties.currency': 'Must be an ISO 4217 currency code' }],
  ])('refuses %j', (properties, expected) => {
    const v: ValidationMap = {};
    revenueFields('revenue', properties as Record<string, unknown> | undefined, v);
    expect(v).toEqual(expected);
  });

  it('prefixes batch positions', () => {
    const v: ValidationMap = {};
    revenueFields('revenue', { revenue: 1, currency: 'XXZ' }, v, 'events[2].');
    expect(v).toEqual({ 'events[2].properties.currency': 'Must be an ISO 4217 currency code' });
  });
});

describe('currencies and tokens', () => {
  it('knows real ISO 4217 codes only', () => {
    expect(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'BRL'].every(isCurrencyCode)).toBe(true);
    expect(['US', 'usd', 'ABC', 'EURO', 42].some(isCurrencyCode)).toBe(false);
  });

  it('makes dla_ tokens and dlp_ keys of the documented shape', () => {
    const t = generateAppToken();
    expect(t).toMatch(APP_TOKEN_PATTERN);
    expect(tokenPrefix(t)).toBe(`${t.slice(0, 12)}…`);
    expect(generateSiteKey()).toMatch(SITE_KEY_PATTERN);
    expect(generateAppToken()).not.toBe(t);
  });

  it('derives a stable UUID per (app, SDK event id), different across apps', () => {
    const id = scopedUuid('app-1', 'e-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(scopedUuid('app-1', 'e-1')).toBe(id);
    expect(scopedUuid('app-2', 'e-1')).not.toBe(id);
  });
});
