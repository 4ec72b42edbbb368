import { LINK_EDGE_FIELDS, LINK_FIELD_KEYS, LINK_STRING_MAX, LINK_URL_FIELDS, linkField, normalizeCsvHeader } from './link-fields';

describe('the link field declaration', () => {
  it('each field says what its kind needs: a length limit, a range and its message, a column of its own', () => {
    const columns = new Set<string>();
    for (const key of LINK_FIELD_KEYS) {
      const field = linkField(key);
      expect({ key, column: /^[a-z][a-z0-9_]*$/.test(field.column) && !columns.has(field.column) }).toEqual({ key, column: true });
      columns.add(field.column);
      if (field.kind === 'text') expect({ key, maxLength: Number.isInteger(field.maxLength) && (field.maxLength as number) > 0 }).toEqual({ key, maxLength: true });
      if (field.kind === 'int') {
        const [min, max] = field.range ?? [NaN, NaN];
        expect({ key, range: min <= max, message: typeof field.message }).toEqual({ key, range: true, message: 'string' });
      }
      // A secret is never imported as is, nor given a fallback a request could not change.
      if (field.kind === 'secret') expect({ key, csv: field.csv, fallback: field.fallback }).toEqual({ key, csv: undefined, fallback: undefined });
    }
  });

  it('a CSV header names one field', () => {
    const owner = new Map<string, string>();
    for (const key of LINK_FIELD_KEYS) {
      for (const name of linkField(key).csv ?? []) {
        const header = normalizeCsvHeader(name);
        expect({ header, owners: [owner.get(header) ?? key] }).toEqual({ header, owners: [key] });
        owner.set(header, key);
      }
    }
  });

  it('derives the lists the API and the edge use', () => {
    expect(LINK_URL_FIELDS).toEqual(expect.arrayContaining(['originalUrl', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'iosUniversalLink', 'androidAppLink', 'ogImageUrl', 'expiredUrl']));
    expect(LINK_URL_FIELDS.every((key) => linkField(key).kind === 'url')).toBe(true);
    expect(LINK_STRING_MAX).toMatchObject({ title: 500, description: 2000, ogTitle: 300, ogDescription: 1000, appScheme: 100, deepLinkPath: 500 });
    // The edge decides with the password's hash and the link controls, never with the deep-link data.
    expect(LINK_EDGE_FIELDS).toEqual(expect.arrayContaining(['originalUrl', 'passwordHash', 'expiresAt', 'expiredUrl', 'maxClicks', 'variants', 'redirectRules', 'cloak']));
    expect(LINK_EDGE_FIELDS).not.toContain('deepLinkParameters');
  });
});
