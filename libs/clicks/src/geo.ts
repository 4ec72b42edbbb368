import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CityResponse, Reader } from 'maxmind';
import { BoundedCache } from './bounded-cache';
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

/**
 * City-level lookups in a MaxMind GeoIP2/GeoLite2 City database, memoized per IP.
 * Reads the raw records with `maxmind` (the reader `@maxmind/geoip2-node` wraps):
 * the wrapper converts every record to camelCase model objects and throws for
 * unknown addresses, which together were a third of a click's enrichment cost.
 */
export class GeoLookup {
  private readonly cache = new BoundedCache<string, GeoLocation>(50_000);
  /** Our shape of each decoded record (records are shared through the reader's cache). */
  private readonly locations = new WeakMap<CityResponse, GeoLocation>();

  private constructor(private readonly reader: Reader<CityResponse> | null) {}

  /** Opens `path` (or the bundled database). Without a readable database every lookup is unknown. */
  static open(path: string | null | undefined): GeoLookup {
    const file = path || bundledCityDatabasePath();
    if (!file) return new GeoLookup(null);
    // Decoded records memoized by their offset in the file: many addresses share a city's record.
    return new GeoLookup(new Reader<CityResponse>(readFileSync(file), { cache: new BoundedCache<string | number, unknown>(20_000) }));
  }

  get available(): boolean {
    return this.reader !== null;
  }

  lookup(ip: string | null | undefined): GeoLocation {
    if (!ip || !this.reader) return UNKNOWN_LOCATION;
    const hit = this.cache.get(ip);
    if (hit) return hit;
    let location = UNKNOWN_LOCATION;
    let r: CityResponse | null = null;
    try {
      r = this.reader.get(ip);
    } catch {
      // An invalid address: unknown location.
    }
    if (r) location = this.locations.get(r) ?? this.toLocation(r);
    this.cache.set(ip, location);
    return location;
  }

  private toLocation(r: CityResponse): GeoLocation {
    const code = r.country?.iso_code ?? r.registered_country?.iso_code ?? null;
    const location: GeoLocation = {
      countryCode: code,
      countryName: code ? countryName(code) || (r.country?.names?.en ?? null) : null,
      region: r.subdivisions?.[0]?.names?.en ?? null,
      city: r.city?.names?.en ?? null,
      timezone: r.location?.time_zone ?? null,
      latitude: r.location?.latitude ?? null,
      longitude: r.location?.longitude ?? null,
    };
    this.locations.set(r, location);
    return location;
  }
}
