import { CUSTOM_CODE_PATTERN, generateShortCode, isReservedCode } from './short-code';

describe('short codes', () => {
  it('are 7 base62 characters, spread over the whole alphabet', () => {
    const seen = new Set<string>();
    const chars = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const code = generateShortCode();
      expect(code).toMatch(/^[0-9A-Za-z]{7}$/);
      seen.add(code);
      for (const c of code) chars.add(c);
    }
    expect(seen.size).toBe(5000);
    expect(chars.size).toBe(62);
  });

  it('reserved words are refused in any case', () => {
    for (const w of ['api', 'health', 'Docs', 'METRICS', 'auth', 'migrations', '.well-known', 'qr']) expect(isReservedCode(w)).toBe(true);
    expect(isReservedCode('summer')).toBe(false);
  });

  it('custom codes: 4-30 ASCII letters and digits', () => {
    expect(CUSTOM_CODE_PATTERN.test('abcd')).toBe(true);
    expect(CUSTOM_CODE_PATTERN.test('a'.repeat(30))).toBe(true);
    for (const bad of ['abc', 'a'.repeat(31), 'ab-cd', 'abcé', 'ab cd']) expect(CUSTOM_CODE_PATTERN.test(bad)).toBe(false);
  });
});
