import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CityResponse, Reader } from 'maxmind';
import { BoundedCache } from './bounded-cache';
import { countryName } from './country-names';

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
 * A database of the `geolite2` npm package (`GeoLite2-City.mmdb`, 63 MB; `GeoLite2-Country.mmdb`,
 * 9 MB). Its `exports` map hides package.json, so look for it along Node's module search paths.
 */
export function bundledGeoDatabasePath(kind: 'City' | 'Country'): string | null {
  const name = `GeoLite2-${kind}.mmdb`;
  for (const dir of [...(require.resolve.paths('geolite2') ?? []), join(process.cwd(), 'node_modules')]) {
    const file = join(dir, 'geolite2', 'dbs', name);
    if (existsSync(file)) return file;
  }
  try {
    // The package's main entry sits beside dbs/.
    const file = join(dirname(require.resolve('geolite2')), 'dbs', name);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** Readers by file, once per process (the edge's country rules and the worker's enrichment share one). */
const readers = new Map<string, Reader<CityResponse> | null>();

function readerOf(file: string): Reader<CityResponse> | null {
  let reader = readers.get(file);
  if (reader === undefined) {
    try {
      // Decoded records memoized by their offset in the file: many addresses share a city's record.
      reader = new Reader<CityResponse>(readFileSync(file), { cache: new BoundedCache<string | number, unknown>(20_000) });
    } catch {
      reader = null;
    }
    readers.set(file, reader);
  }
  return reader;
}

/**
 * The one GeoIP reader of the service: a MaxMind-format database (GeoIP2/GeoLite2 City or
 * Country) read with `maxmind`'s raw records (the `@maxmind/geoip2-node` wrapper's camelCase
 * model objects and its exception per unknown address would cost about a third of a click's
 * enrichment). `GeoIp.city` (the worker: the contract's country, region, city, timezone and
 * coordinates) opens `GEOIP_DATABASE_PATH` or the bundled City database; `GeoIp.country` (the
 * edge's country rules) the same path, else the City database when this process already has it
 * open, else the bundled Country database. Each file is read once per process, lookups are
 * memoized per IP.
 */
export class GeoIp {
  private readonly cache = new BoundedCache<string, GeoLocation>(50_000);
  /** Our shape of each decoded record (records are shared through the reader's cache). */
  private readonly locations = new WeakMap<CityResponse, GeoLocation>();

  private constructor(private readonly reader: Reader<CityResponse> | null) {}

  private static readonly opened = new Map<string, GeoIp>();

  private static of(file: string | null): GeoIp {
    if (!file) return new GeoIp(null);
    let geo = GeoIp.opened.get(file);
    if (!geo) {
      geo = new GeoIp(readerOf(file));
      GeoIp.opened.set(file, geo);
    }
    return geo;
  }

  /** City-level lookups (`path`, else the bundled City database). Without a readable database every lookup is unknown. */
  static city(path: string | null | undefined): GeoIp {
    return GeoIp.of(path || bundledGeoDatabasePath('City'));
  }

  /** Country lookups: `path`, else a City database this process already reads, else the bundled Country database. */
  static country(path: string | null | undefined): GeoIp {
    if (path) return GeoIp.of(path);
    const city = bundledGeoDatabasePath('City');
    if (city && GeoIp.opened.get(city)?.available) return GeoIp.of(city);
    return GeoIp.of(bundledGeoDatabasePath('Country'));
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

  /** ISO country code of an IP (a Country or City database), or null. */
  countryCode(ip: string | null | undefined): string | null {
    return this.lookup(ip).countryCode;
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
