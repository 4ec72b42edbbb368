import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Reader, ReaderModel } from '@maxmind/geoip2-node';
import { LruCache } from './lru';
import { countryName } from './rollup-dimensions';

export interface GeoLocation {
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  timezone: string | null;
  latitude: number | null;
  longitude: number | null;
}

export const UNKNOWN_LOCATION: GeoLocation = Object.freeze({
  countryCode: null,
  countryName: null,
  region: null,
  city: null,
  timezone: null,
  latitude: null,
  longitude: null,
});

/**
 * The GeoLite2 City database shipped in the `geolite2` npm package. Its `exports`
 * map hides package.json, so look for it along Node's module search paths.
 */
export function bundledCityDatabasePath(): string | null {
  const searched = require.resolve.paths('geolite2') ?? [];
  for (const dir of [...searched, join(process.cwd(), 'node_modules')]) {
    const file = join(dir, 'geolite2', 'dbs', 'GeoLite2-City.mmdb');
    if (existsSync(file)) return file;
  }
  try {
    // The package's main entry sits beside dbs/.
    const file = join(dirname(require.resolve('geolite2')), 'dbs', 'GeoLite2-City.mmdb');
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** City-level lookups in a MaxMind GeoIP2/GeoLite2 City database, memoized per IP. */
export class GeoLookup {
  private readonly cache = new LruCache<string, GeoLocation>(50_000);

  private constructor(private readonly reader: ReaderModel | null) {}

  /** Opens `path` (or the bundled database). Without a readable database every lookup is unknown. */
  static open(path: string | null | undefined): GeoLookup {
    const file = path || bundledCityDatabasePath();
    if (!file) return new GeoLookup(null);
    return new GeoLookup(Reader.openBuffer(readFileSync(file)));
  }

  get available(): boolean {
    return this.reader !== null;
  }

  lookup(ip: string | null | undefined): GeoLocation {
    if (!ip || !this.reader) return UNKNOWN_LOCATION;
    const hit = this.cache.get(ip);
    if (hit) return hit;
    let location = UNKNOWN_LOCATION;
    try {
      const r = this.reader.city(ip);
      const code = r.country?.isoCode ?? r.registeredCountry?.isoCode ?? null;
      location = {
        countryCode: code,
        countryName: code ? countryName(code) || (r.country?.names?.en ?? null) : null,
        region: r.subdivisions?.[0]?.names?.en ?? null,
        city: r.city?.names?.en ?? null,
        timezone: r.location?.timeZone ?? null,
        latitude: r.location?.latitude ?? null,
        longitude: r.location?.longitude ?? null,
      };
    } catch {
      // AddressNotFoundError or an invalid address: unknown location.
    }
    this.cache.set(ip, location);
    return location;
  }
}
