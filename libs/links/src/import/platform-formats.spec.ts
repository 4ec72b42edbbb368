import fc from 'fast-check';
import { normalizeCsvHeader } from '@dl/link-fields';
import { ValidationError } from '@dl/platform/http';
import { importFixture } from '@dl/testing';
import { codeOfShortUrl, countCell, dateCell } from './import-cells';
import { AUTO_FORMATS_MESSAGE, mapRow, planColumns } from './import-columns';
import { COMPETITOR_PLATFORMS, PLATFORM_FORMATS } from './platform-formats';

const NOW = new Date('2026-01-01T00:00:00Z');
/** The sample file's header (no header cell holds a comma: split at commas, quotes dropped). */
function headerOf(platform: string): string[] {
  return importFixture(platform).split('\n')[0].split(',').map((h) => h.replace(/^"(.*)"$/, '$1'));
}

describe('platform exports: detection', () => {
  it.each(COMPETITOR_PLATFORMS)('%s: its sample header is recognized with platform auto and by its name', (platform) => {
    expect(planColumns(headerOf(platform), 'auto').platform?.platform).toBe(platform);
    expect(planColumns(headerOf(platform), platform).platform?.platform).toBe(platform);
  });

  it('every platform has a sample file and a format', () => {
    expect(PLATFORM_FORMATS.map((f) => f.platform).sort()).toEqual([...COMPETITOR_PLATFORMS].sort());
  });

  it('detection ignores column order, case, spacing and punctuation', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COMPETITOR_PLATFORMS),
        fc.integer(),
        fc.constantFrom((s: string) => s.toUpperCase(), (s: string) => s.toLowerCase(), (s: string) => ` ${s} `, (s: string) => s.replace(/_/g, ' ')),
        (platform, seed, style) => {
          const header = [...headerOf(platform)].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7)).map(style);
          return planColumns(header, 'auto').platform?.platform === platform;
        },
      ),
    );
  });

  it('a header of no known export with auto → 400 Validation error naming the formats; with a free name, the generic 400', () => {
    const known = new Set(PLATFORM_FORMATS.flatMap((f) => Object.values(f.columns).flat().map(normalizeCsvHeader)));
    const unknownName = fc.stringMatching(/^[a-z]{3,12}$/).filter((s) => !known.has(s) && !['url', 'title', 'tags', 'domain', 'alias', 'code', 'data'].includes(s) && !s.endsWith('url'));
    fc.assert(
      fc.property(fc.uniqueArray(unknownName, { minLength: 1, maxLength: 6 }), (header) => {
        try {
          planColumns(header, 'auto');
          return false;
        } catch (err) {
          return err instanceof ValidationError && err.options.validation?.file === AUTO_FORMATS_MESSAGE;
        }
      }),
    );
    expect(AUTO_FORMATS_MESSAGE).toBe(
      'Unrecognized export: expected the link export of Firebase Dynamic Links, Shlink, Kutt, Rebrandly, Short.io, Dub, YOURLS, Bitly, a Branch link export, or the generic columns (shortCode, originalUrl, iosUrl, androidUrl, webUrl, tags, ...)',
    );
    expect(() => planColumns(['name', 'email'], 'bitly')).toThrow(/^Invalid CSV columns: /);
  });

  it('a named platform whose header is the generic columns reads them as before', () => {
    expect(planColumns(['shortCode', 'url'], 'rebrandly').format).toBe('spec');
  });
});

describe('platform exports: row mapping', () => {
  const first = (platform: string, cells: string[]) => mapRow(planColumns(headerOf(platform), 'auto'), cells, NOW);

  it('Bitly: a custom back-half is the code, else the Bitlink hash; clicks and created_at kept', () => {
    const header = headerOf('bitly');
    const cells = (o: Record<string, string>) => header.map((h) => o[h] ?? '');
    expect(first('bitly', cells({ id: 'bit.ly/3Bx', link: 'https://bit.ly/3Bx', long_url: 'https://e.example/a', title: 'A', created_at: '2023-04-01T10:15:00+0000', tags: 'x;y', custom_bitlinks: 'https://bit.ly/mine', clicks: '1,520' }))).toEqual({
      shortCode: 'mine',
      competitorId: 'bit.ly/3Bx',
      createdAt: new Date('2023-04-01T10:15:00Z'),
      clicks: 1520,
      fields: { originalUrl: 'https://e.example/a', title: 'A', tags: ['x', 'y'] },
    });
    expect(first('bitly', cells({ link: 'https://bit.ly/3Bx', long_url: 'https://e.example/a' }))).toMatchObject({ shortCode: '3Bx', createdAt: null, clicks: null });
  });

  it('Firebase: the long link parameters become destinations, social preview and UTM; the link name the title', () => {
    const header = headerOf('firebase');
    const at = (label: string) => header.findIndex((h) => h.includes(label));
    const cells = header.map(() => '');
    cells[at('Short link')] = 'https://x.page.link/promo';
    cells[at('(link)')] = 'https://e.example/deep';
    cells[at('(apn)')] = 'com.example.app';
    cells[at('(isi)')] = '1234567890';
    cells[at('(ofl)')] = 'https://e.example/desktop';
    cells[at('(st)')] = 'Social';
    cells[at('(utm_campaign)')] = 'spring';
    cells[at('Creation timestamp')] = '1670000000';
    expect(first('firebase', cells)).toEqual({
      shortCode: 'promo',
      competitorId: null,
      createdAt: new Date(1670000000 * 1000),
      clicks: null,
      fields: {
        originalUrl: 'https://e.example/deep',
        androidUrl: 'https://play.google.com/store/apps/details?id=com.example.app',
        iosUrl: 'https://apps.apple.com/app/id1234567890',
        webFallbackUrl: 'https://e.example/desktop',
        title: 'Social',
        ogTitle: 'Social',
        utmParameters: { campaign: 'spring' },
      },
    });
  });

  it('a bad date or click count fails the row, naming the column', () => {
    const header = headerOf('yourls');
    expect(() => first('yourls', ['k', 'https://e.example', 't', 'yesterday', '', '1'])).toThrow('createdAt: Must be a date');
    expect(() => first('yourls', ['k', 'https://e.example', 't', '2030-01-01 00:00:00', '', '1'])).toThrow('createdAt: Must not be in the future');
    expect(() => first('yourls', ['k', 'https://e.example', 't', '', '', 'many'])).toThrow('clicks: Must be a whole number');
    expect(header).toHaveLength(6);
  });
});

describe('import cells', () => {
  it('codeOfShortUrl: the last path segment, with or without a scheme', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), fc.constantFrom('https://bit.ly/', 'bit.ly/', 'http://go.example.com/', 'https://s.example/x/'), (code, prefix) => codeOfShortUrl(`${prefix}${code}`) === (prefix.endsWith('x/') ? `x/${code}` : code)),
    );
    expect(codeOfShortUrl('')).toBeUndefined();
  });

  it('dateCell reads ISO 8601, `YYYY-MM-DD HH:MM:SS` as UTC and Unix seconds/milliseconds alike', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1995-01-01T00:00:00Z'), max: NOW, noInvalidDate: true }), (d) => {
        const whole = new Date(Math.floor(d.getTime() / 1000) * 1000);
        const iso = whole.toISOString();
        const forms = [iso, iso.slice(0, 19).replace('T', ' '), String(whole.getTime() / 1000), String(whole.getTime())];
        return forms.every((f) => dateCell('createdAt', f, NOW)?.getTime() === whole.getTime());
      }),
    );
  });

  it('countCell takes digits with thousands separators only', () => {
    expect(countCell('clicks', ' 1 234 ')).toBe(1234);
    expect(countCell('clicks', '')).toBeUndefined();
    expect(() => countCell('clicks', '-1')).toThrow('clicks: Must be a whole number');
  });
});
