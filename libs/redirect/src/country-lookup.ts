import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BadMethodCallError, Reader, ReaderModel } from '@maxmind/geoip2-node';
import { TtlCache } from './ttl-cache';

/** The GeoLite2 Country database of the `geolite2` package (9 MB: enough for targeting). */
function bundledCountryDatabase(): string | null {
  for (const dir of [...(require.resolve.paths('geolite2') ?? []), join(process.cwd(), 'node_modules')]) {
    const file = join(dir, 'geolite2', 'dbs', 'GeoLite2-Country.mmdb');
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * Country of an IP for targeting rules. The database is opened on the first link that
 * targets countries (most edges never pay its memory), from GEOIP_DATABASE_PATH when set
 * (a City or Country database) or the bundled Country database.
 */
export class CountryLookup {
  private reader: ReaderModel | null | undefined;
  private cityDatabase: boolean | undefined;
  private readonly cache = new TtlCache<string | null>(50_000);

  constructor(private readonly path: string | undefined) {}

  country(ip: string | null): string | null {
    if (!ip) return null;
    const hit = this.cache.get(ip);
    if (hit !== undefined) return hit;
    let code: string | null = null;
    const reader = this.open();
    if (reader) {
      try {
        code = this.query(reader, ip);
      } catch {
        code = null;
      }
    }
    this.cache.set(ip, code, 3_600_000);
    return code;
  }

  /** A Country database answers country(); a City database only city() (both carry the country). */
  private query(reader: ReaderModel, ip: string): string | null {
    if (this.cityDatabase !== true) {
      try {
        const r = reader.country(ip);
        this.cityDatabase = false;
        return r.country?.isoCode ?? r.registeredCountry?.isoCode ?? null;
      } catch (err) {
        if (!(err instanceof BadMethodCallError)) throw err;
        this.cityDatabase = true;
      }
    }
    const r = reader.city(ip);
    return r.country?.isoCode ?? r.registeredCountry?.isoCode ?? null;
  }

  private open(): ReaderModel | null {
    if (this.reader !== undefined) return this.reader;
    const file = this.path || bundledCountryDatabase();
    try {
      this.reader = file ? Reader.openBuffer(readFileSync(file)) : null;
    } catch {
      this.reader = null;
    }
    return this.reader;
  }
}
