import { isBotUserAgent } from './bots';
import { bundledGeoDatabasePath, GeoIp, UNKNOWN_LOCATION } from './geoip';

describe(GeoIp.name, () => {
  it('reads the bundled City database once per process: the worker and the edge share the reader', () => {
    const city = GeoIp.city(undefined);
    expect(city.available).toBe(true);
    expect(GeoIp.city(undefined)).toBe(city);
    expect(GeoIp.city(bundledGeoDatabasePath('City'))).toBe(city);
    // The edge's country rules use the City database this process already reads.
    expect(GeoIp.country(undefined)).toBe(city);
  });

  it('gives the contract fields of a known address, and unknown for none or garbage', () => {
    const geo = GeoIp.city(undefined);
    const loc = geo.lookup('89.160.20.112');
    expect(loc).toMatchObject({ countryCode: 'SE', countryName: 'Sweden', city: 'Karlstad', timezone: 'Europe/Stockholm' });
    expect(typeof loc.latitude).toBe('number');
    expect(geo.countryCode('216.160.83.56')).toBe('US');
    expect(geo.lookup(null)).toBe(UNKNOWN_LOCATION);
    expect(geo.lookup('not an ip')).toBe(UNKNOWN_LOCATION);
    expect(geo.lookup('127.0.0.1')).toBe(UNKNOWN_LOCATION);
  });

  it('answers countries from a Country database too (GEOIP_DATABASE_PATH may name either)', () => {
    const country = GeoIp.country(bundledGeoDatabasePath('Country'));
    expect(country).not.toBe(GeoIp.city(undefined));
    expect(country.countryCode('81.2.69.142')).toBe('GB');
    expect(country.lookup('81.2.69.142').city).toBeNull();
  });

  it('without a readable database every lookup is unknown', () => {
    const none = GeoIp.country('/nonexistent/GeoLite2-City.mmdb');
    expect(none.available).toBe(false);
    expect(none.countryCode('81.2.69.142')).toBeNull();
  });
});

describe(isBotUserAgent.name, () => {
  it('is the one rule of the edge and the worker: no user agent, isbot, and the named preview fetchers', () => {
    expect(isBotUserAgent(null)).toBe(true);
    expect(isBotUserAgent('')).toBe(true);
    expect(isBotUserAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe(true);
    expect(isBotUserAgent('facebookexternalhit/1.1')).toBe(true);
    expect(isBotUserAgent('WhatsApp/2.23.20.0')).toBe(true);
    expect(
      isBotUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'),
    ).toBe(false);
  });
});
