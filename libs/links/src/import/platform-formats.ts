import { FDL_PARAMETER_NAMES, FDL_PARAMETERS, FdlParams, fdlLinkValues, normalizeCsvHeader } from '@dl/link-fields';
import { codeOfShortUrl, compact, countCell, dateCell, set, tagsOf } from './import-cells';
import { MappedRow } from './mapped-row';

/** The platforms whose link exports are recognized (`migrationMetadata.competitorPlatform`). */
export const COMPETITOR_PLATFORMS = ['bitly', 'rebrandly', 'shortio', 'dub', 'shlink', 'kutt', 'yourls', 'firebase'] as const;
export type CompetitorPlatform = (typeof COMPETITOR_PLATFORMS)[number];

/** A row's cells by the format's own keys. */
type Cells = Record<string, string | undefined>;

/**
 * One platform's link export: its columns (each key with the header names it is written as,
 * compared case- and punctuation-insensitively), the keys a header must have to be that export,
 * and how a row becomes link fields. Where each column set is documented: docs/migrating/README.md.
 */
export interface PlatformFormat {
  platform: CompetitorPlatform;
  label: string;
  columns: Record<string, string[]>;
  /** The header is this export when it has every key of one of these sets. */
  signatures: string[][];
  map(v: Cells, now: Date): MappedRow;
}

/** The fields every platform shares: code, id, title, tags, created date and click count. */
function row(v: Cells, now: Date, fields: MappedRow['fields'], code: string | undefined): MappedRow {
  return {
    shortCode: code ?? null,
    competitorId: set(v.id) ?? null,
    createdAt: dateCell('createdAt', v.createdAt, now) ?? null,
    clicks: countCell('clicks', v.clicks) ?? null,
    fields: compact({ ...fields, title: set(v.title) ?? fields.title, tags: tagsOf(v.tags) }) as MappedRow['fields'],
  };
}

const BITLY: PlatformFormat = {
  platform: 'bitly',
  label: 'Bitly',
  // The Bitlink object (dev.bitly.com) and the web app's CSV export labels.
  columns: {
    id: ['id'],
    link: ['link', 'bitlink'],
    longUrl: ['long_url'],
    title: ['title'],
    createdAt: ['created_at', 'created', 'date created', 'created date'],
    tags: ['tags'],
    customBitlinks: ['custom_bitlinks', 'custom bitlinks', 'custom back-halves'],
    clicks: ['clicks', 'total clicks', 'engagements', 'total engagements'],
  },
  signatures: [['longUrl', 'link'], ['longUrl', 'id']],
  map: (v, now) => {
    // A custom back-half is the code people know; else the Bitlink's own hash.
    const custom = set(v.customBitlinks)?.split(/[,;|\s]+/).map(codeOfShortUrl).find(Boolean);
    return row(v, now, { originalUrl: set(v.longUrl) }, custom ?? codeOfShortUrl(v.link) ?? codeOfShortUrl(v.id));
  },
};

const REBRANDLY: PlatformFormat = {
  platform: 'rebrandly',
  label: 'Rebrandly',
  // The Link entity (developers.rebrandly.com/docs/link-entity), flattened.
  columns: {
    id: ['id'],
    slashtag: ['slashtag'],
    destination: ['destination'],
    shortUrl: ['shortUrl'],
    title: ['title'],
    createdAt: ['createdAt'],
    clicks: ['clicks'],
    tags: ['tags'],
  },
  signatures: [['slashtag', 'destination']],
  map: (v, now) => row(v, now, { originalUrl: set(v.destination) }, set(v.slashtag) ?? codeOfShortUrl(v.shortUrl)),
};

const SHORTIO: PlatformFormat = {
  platform: 'shortio',
  label: 'Short.io',
  // The link object of the Short.io API (idString, path, originalURL, shortURL, title, tags, createdAt).
  columns: {
    id: ['idString', 'id', 'link id'],
    path: ['path'],
    originalUrl: ['originalURL', 'original url'],
    shortUrl: ['shortURL', 'short url', 'secureShortURL'],
    title: ['title'],
    tags: ['tags'],
    createdAt: ['createdAt', 'created at'],
    clicks: ['clicks', 'totalClicks'],
  },
  signatures: [['originalUrl', 'path'], ['originalUrl', 'shortUrl']],
  map: (v, now) => row(v, now, { originalUrl: set(v.originalUrl) }, set(v.path) ?? codeOfShortUrl(v.shortUrl)),
};

const DUB: PlatformFormat = {
  platform: 'dub',
  label: 'Dub',
  // Dub's "Export links" CSV (its column labels) and its Link object's names.
  columns: {
    id: ['Link ID', 'id'],
    link: ['Short link', 'shortLink'],
    key: ['key'],
    url: ['Destination URL', 'url'],
    title: ['title'],
    clicks: ['clicks'],
    createdAt: ['Created at', 'createdAt'],
    tags: ['tags'],
  },
  signatures: [['link', 'url']],
  map: (v, now) => row(v, now, { originalUrl: set(v.url) }, set(v.key) ?? codeOfShortUrl(v.link)),
};

const SHLINK: PlatformFormat = {
  platform: 'shlink',
  label: 'Shlink',
  // shlink-web-component's short URL export: createdAt, domain, shortCode, shortUrl, longUrl, title, tags (|), visits.
  columns: {
    shortCode: ['shortCode'],
    longUrl: ['longUrl'],
    shortUrl: ['shortUrl'],
    title: ['title'],
    tags: ['tags'],
    createdAt: ['createdAt', 'dateCreated'],
    clicks: ['visits'],
  },
  signatures: [['shortCode', 'longUrl']],
  map: (v, now) => row(v, now, { originalUrl: set(v.longUrl) }, set(v.shortCode) ?? codeOfShortUrl(v.shortUrl)),
};

const KUTT: PlatformFormat = {
  platform: 'kutt',
  label: 'Kutt',
  // Kutt's link object (API v2): id, address, target, description, visit_count, created_at, link.
  columns: {
    id: ['id'],
    address: ['address'],
    target: ['target'],
    link: ['link'],
    title: ['description'],
    createdAt: ['created_at'],
    clicks: ['visit_count'],
  },
  signatures: [['address', 'target']],
  map: (v, now) => row(v, now, { originalUrl: set(v.target) }, set(v.address) ?? codeOfShortUrl(v.link)),
};

const YOURLS: PlatformFormat = {
  platform: 'yourls',
  label: 'YOURLS',
  // The yourls_url table (keyword, url, title, timestamp, ip, clicks), as its export plugins write it.
  columns: {
    keyword: ['keyword'],
    url: ['url', 'long url'],
    title: ['title'],
    createdAt: ['timestamp'],
    clicks: ['clicks'],
  },
  signatures: [['keyword', 'url']],
  map: (v, now) => row(v, now, { originalUrl: set(v.url) }, set(v.keyword)),
};

const FIREBASE: PlatformFormat = {
  platform: 'firebase',
  label: 'Firebase Dynamic Links',
  // The Google Takeout export of Dynamic Links metadata (firebase.google.com/support/guides/export-dynamic-links).
  columns: {
    shortLink: ['Short link', 'Short Dynamic Link'],
    title: ['Link name'],
    createdAt: ['Creation timestamp'],
    ...Object.fromEntries(FDL_PARAMETER_NAMES.map((p) => [`fdl:${p}`, [`${FDL_PARAMETERS[p]} (${p})`, p]])),
  },
  signatures: [['shortLink', 'fdl:link']],
  map: (v, now) => {
    const params: FdlParams = Object.fromEntries(FDL_PARAMETER_NAMES.map((p) => [p, v[`fdl:${p}`]]));
    const fields = fdlLinkValues(params);
    return row(v, now, { ...fields, title: fields.ogTitle }, codeOfShortUrl(v.shortLink));
  },
};

/** Most specific first: the first export whose signature the header has is the file's. */
export const PLATFORM_FORMATS: readonly PlatformFormat[] = [FIREBASE, SHLINK, KUTT, REBRANDLY, SHORTIO, DUB, YOURLS, BITLY];

/** A header matched to one format: each header index → the format's key. */
export interface PlatformPlan {
  format: PlatformFormat;
  keys: Map<number, string>;
}

/** Matches a header against one format; null when it lacks every signature. */
export function matchPlatform(format: PlatformFormat, header: string[]): PlatformPlan | null {
  const byName = new Map<string, string>();
  for (const [key, names] of Object.entries(format.columns)) for (const n of names) byName.set(normalizeCsvHeader(n), key);
  const keys = new Map<number, string>();
  header.forEach((h, i) => {
    const key = byName.get(normalizeCsvHeader(h));
    if (key && ![...keys.values()].includes(key)) keys.set(i, key);
  });
  const present = new Set(keys.values());
  return format.signatures.some((s) => s.every((k) => present.has(k))) ? { format, keys } : null;
}

/** The first recognized platform export (most specific first), or null. */
export function detectPlatform(header: string[]): PlatformPlan | null {
  for (const format of PLATFORM_FORMATS) {
    const plan = matchPlatform(format, header);
    if (plan) return plan;
  }
  return null;
}

export const platformFormat = (platform: string): PlatformFormat | undefined => PLATFORM_FORMATS.find((f) => f.platform === platform);
