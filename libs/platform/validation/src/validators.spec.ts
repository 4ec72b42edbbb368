import { validateSync } from 'class-validator';
import { isHttpUrl, IsHttpUrl, MAX_URL_LENGTH } from './http-url';
import { EachPlainObject, isCountryCode, isPlainObject, isUuid, IsStringMax, IsValidWhen, parseIsoDate } from './validators';

describe('platform validators', () => {
  it('isHttpUrl: absolute http(s) with a host, no whitespace, at most 2,048 characters', () => {
    for (const ok of ['https://example.com', 'http://a.b/c?d=e#f', `https://e.com/${'x'.repeat(MAX_URL_LENGTH - 16)}`]) expect(isHttpUrl(ok)).toBe(true);
    for (const bad of ['', 'example.com', 'ftp://example.com', 'https://', 'https://exa mple.com', 'javascript:alert(1)', `https://e.com/${'x'.repeat(MAX_URL_LENGTH)}`, 42, null]) {
      expect(isHttpUrl(bad)).toBe(false);
    }
  });

  it('isUuid, isPlainObject, parseIsoDate, isCountryCode', () => {
    expect(isUuid('3f2b6a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isUuid('3f2b6a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5')).toBe(false);
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(parseIsoDate('2026-11-25T10:00:00Z')?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(parseIsoDate('25/11/2026')).toBeNull();
    expect(parseIsoDate('2026-13-45')).toBeNull();
    expect(isCountryCode('FR')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('fr')).toBe(false);
  });

  it('decorators fail with their message and pass valid values', () => {
    class Body {
      @IsHttpUrl() url!: unknown;
      @IsStringMax(3) code!: unknown;
      @IsValidWhen((v) => v === 'yes', 'Must be yes') answer!: unknown;
      @EachPlainObject() rows!: unknown;
    }
    const check = (values: Partial<Body>) =>
      Object.fromEntries(validateSync(Object.assign(new Body(), values)).map((e) => [e.property, Object.values(e.constraints ?? {})]));
    expect(check({ url: 'https://example.com', code: 'abc', answer: 'yes', rows: [{ a: 1 }] })).toEqual({});
    // Quiet on a value that is not an array (another rule names that).
    expect(check({ url: 'https://example.com', code: 'abc', answer: 'yes', rows: 5 })).toEqual({});
    expect(check({ url: 'example.com', code: 'abcd', answer: 'no', rows: [{}, []] })).toEqual({
      rows: ['Must be an array of objects'],
      url: ['Must be a valid URL'],
      code: ['Must be a string of at most 3 characters'],
      answer: ['Must be yes'],
    });
  });
});
