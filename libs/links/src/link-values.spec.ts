import { ValidationError } from '@dl/platform/http';
import { isHttpUrl } from '@dl/platform/validation';
import { LINK_URL_FIELDS } from '@dl/link-fields';
import { normalizeTargeting, normalizeUtm, resolveNewLink, suppliedFields, templateDefaultsFromFields, utmToSnake } from './link-values';
import { LinkFieldsDto } from './link-fields.dto';
import { linkValidationMessage } from './validation-messages';

describe('link values', () => {
  it('URLs: absolute http(s) with a host, at most 2,048 characters', () => {
    expect(isHttpUrl('https://example.com')).toBe(true);
    expect(isHttpUrl('http://localhost:3000/x?y=1#z')).toBe(true);
    expect(isHttpUrl(`https://e.com/${'x'.repeat(2048 - 14)}`)).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:,x', 'file:///x', 'mailto:a@b.c', '//example.com', 'https://', 'https://exa mple.com', `https://e.com/${'x'.repeat(2048)}`, 5, null]) {
      expect(isHttpUrl(bad)).toBe(false);
    }
  });

  it('UTM: utm_* and bare keys normalize to bare keys; the create response shows utm_* keys', () => {
    expect(normalizeUtm({ utm_source: 'a', medium: 'b' })).toEqual({ source: 'a', medium: 'b' });
    expect(normalizeUtm({})).toBeNull();
    expect(utmToSnake({ source: 'a', term: 't' })).toEqual({ utm_source: 'a', utm_term: 't' });
  });

  it('targeting: platforms (create) and devices (update) are one list', () => {
    expect(normalizeTargeting({ platforms: ['ios'], devices: ['web', 'ios'], countries: ['FR'] })).toEqual({ countries: ['FR'], devices: ['web', 'ios'] });
  });

  it('the request wins over template defaults, which win over product defaults', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const v = resolveNewLink({ originalUrl: 'https://t.example', title: 'T', attributionWindowHours: 12, expiresInDays: 2 }, { title: 'Mine' }, now);
    expect(v).toMatchObject({ originalUrl: 'https://t.example', title: 'Mine', attributionWindowHours: 12, tags: [], iosUrl: null });
    expect(v.expiresAt?.toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(resolveNewLink({}, { originalUrl: 'https://x.example' }, now).attributionWindowHours).toBe(168);
  });

  it('no originalUrl anywhere → Invalid URL format', () => {
    try {
      resolveNewLink({}, {});
      throw new Error('expected a throw');
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).message).toBe('Invalid URL format');
      expect((err as ValidationError).options.validation).toEqual({ originalUrl: 'Must be a valid URL' });
    }
  });

  it('top-level message order: URL, then attribution window, then nothing (Validation error)', () => {
    expect(linkValidationMessage({ title: 'x', iosUrl: 'Must be a valid URL', attributionWindowHours: 'y' })).toBe('Invalid URL format');
    expect(linkValidationMessage({ title: 'x', attributionWindowHours: 'y' })).toBe('Attribution window must be between 1 and 2160 hours');
    expect(linkValidationMessage({ title: 'x' })).toBeUndefined();
    expect(linkValidationMessage({ url: 'Must be a valid URL' })).toBeUndefined();
  });

  it('every URL a link stores is its WHATWG href (decisions §14), template defaults too', () => {
    const CAFE = 'https://example.com/café/€?q=ü#é';
    const CAFE_HREF = 'https://example.com/caf%C3%A9/%E2%82%AC?q=%C3%BC#%C3%A9';
    const IDN = 'https://bücher.example/straße';
    const IDN_HREF = 'https://xn--bcher-kva.example/stra%C3%9Fe';
    const dto = {
      ...Object.fromEntries(LINK_URL_FIELDS.map((f) => [f, CAFE])),
      originalUrl: IDN,
      variants: [{ url: CAFE, weight: 50 }, { url: IDN, weight: 50 }],
      redirectRules: [{ conditions: { countries: ['DE'] }, url: IDN }],
    } as unknown as LinkFieldsDto;
    const fields = suppliedFields(dto);
    expect(fields).toMatchObject({
      ...Object.fromEntries(LINK_URL_FIELDS.map((f) => [f, CAFE_HREF])),
      originalUrl: IDN_HREF,
      variants: [{ url: CAFE_HREF, weight: 50 }, { url: IDN_HREF, weight: 50 }],
      redirectRules: [{ conditions: { countries: ['DE'] }, url: IDN_HREF }],
    });
    expect(templateDefaultsFromFields(suppliedFields({ originalUrl: CAFE } as LinkFieldsDto))).toEqual({ originalUrl: CAFE_HREF });
  });
});
