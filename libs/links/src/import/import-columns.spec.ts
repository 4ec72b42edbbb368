import { LINK_CSV_COLUMNS, linkField, LinkFieldKey } from '@dl/link-fields';
import { sampleLinkValues } from '@dl/testing';
import { mapRow, planColumns } from './import-columns';

describe('migration import columns', () => {
  it('spec columns: campaign → utm_campaign, channel → utm_medium, feature → utm_source, webUrl → webFallbackUrl', () => {
    const plan = planColumns(['Short Code', 'webUrl', 'iosUrl', 'campaign', 'channel', 'feature', 'tags']);
    expect(plan.format).toBe('spec');
    expect(mapRow(plan, ['abc1', 'https://w.example', 'https://i.example', 'c', 'm', 's', 'x; y'])).toEqual({
      shortCode: 'abc1',
      competitorId: null,
      fields: {
        originalUrl: 'https://w.example',
        webFallbackUrl: 'https://w.example',
        iosUrl: 'https://i.example',
        tags: ['x', 'y'],
        utmParameters: { source: 's', medium: 'm', campaign: 'c' },
      },
    });
  });

  it('every declared CSV column fills its field: text as is, numbers, booleans (yes/no), tags lists and JSON cells read', () => {
    const samples = sampleLinkValues();
    const fields = [...new Set(Object.values(LINK_CSV_COLUMNS))];
    const cell = (key: LinkFieldKey): string => {
      const value = samples[key];
      if (linkField(key).kind === 'boolean') return value ? 'Yes' : 'no';
      if (Array.isArray(value) && linkField(key).kind === 'tags') return value.join('; ');
      return typeof value === 'string' ? ` ${value} ` : typeof value === 'number' ? String(value) : JSON.stringify(value);
    };
    const header = fields.map((key) => (linkField(key).csv as readonly string[])[0]);
    const row = mapRow(planColumns(header), fields.map(cell));
    expect(row.fields).toEqual(Object.fromEntries(fields.map((key) => [key, samples[key]])));
    // Each of a field's column names is recognized, in any case.
    for (const [name, key] of Object.entries(LINK_CSV_COLUMNS)) {
      expect({ name, target: planColumns([name.toUpperCase(), 'url']).targets.get(0) }).toEqual({ name, target: key });
    }
  });

  it('an unrecognized column set → 400', () => {
    expect(() => planColumns(['name', 'email'])).toThrow(/^Invalid CSV columns/);
  });

  it('Branch: alias, else the last path segment of url, is the short code', () => {
    const header = ['creation_timestamp', 'link_id', 'channel', 'feature', 'campaign', 'stage', 'tags', 'data', 'alias', 'domain', 'url'];
    const plan = planColumns(header);
    expect(plan.format).toBe('branch');
    const data = JSON.stringify({ $fallback_url: 'https://f.example', '~campaign': 'spring' });
    const row = mapRow(plan, ['t', '42', 'email', '', '', '', '', data, '', 'x.app.link', 'https://x.app.link/AbC123']);
    expect(row).toEqual({
      shortCode: 'AbC123',
      competitorId: '42',
      fields: { originalUrl: 'https://f.example', utmParameters: { medium: 'email', campaign: 'spring' } },
    });
    expect(() => mapRow(plan, ['t', '42'])).toThrow('Row has 2 columns, expected 11');
  });
});
