import { GeoIp } from '@dl/platform/geo';
import { TtlCache } from './ttl-cache';

/**
 * Country of an IP for targeting rules, through the service's one GeoIP reader
 * (`@dl/platform/geo`). The database is opened on the first link that targets countries
 * (most edges never pay its memory): GEOIP_DATABASE_PATH when set (a City or Country
 * database), else a City database this process already reads, else the bundled Country
 * database. Answers are kept per IP for an hour, so a visit costs a map lookup.
 */
export class CountryLookup {
  private geo: GeoIp | undefined;
  private readonly cache = new TtlCache<string | null>(50_000);

  constructor(private readonly path: string | undefined) {}

  country(ip: string | null): string | null {
    if (!ip) return null;
    const hit = this.cache.get(ip);
    if (hit !== undefined) return hit;
    this.geo ??= GeoIp.country(this.path);
    const code = this.geo.countryCode(ip);
    this.cache.set(ip, code, 3_600_000);
    return code;
  }
}
