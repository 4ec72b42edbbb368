import { LINK_CSV_COLUMNS, linkField, LinkFieldKey, LinkFieldKind, normalizeCsvHeader } from '@dl/link-fields';
import { BadRequestError, ValidationError } from '@dl/platform/http';
import { isPlainObject } from '@dl/platform/validation';
import { compact, set, tagsOf, utm } from './import-cells';
import { MappedRow } from './mapped-row';
import { detectPlatform, matchPlatform, PLATFORM_FORMATS, PlatformFormat, platformFormat } from './platform-formats';

export type { MappedRow } from './mapped-row';
export type CsvFormat = 'spec' | 'branch' | 'platform';

/**
 * Spec columns (case and punctuation ignored) → what they fill: the declared fields' own
 * columns (@dl/link-fields `csv`), and these.
 */
const SPEC_COLUMNS: Record<string, string> = {
  ...LINK_CSV_COLUMNS,
  shortcode: 'shortCode', code: 'shortCode', alias: 'shortCode',
  campaign: 'campaign', channel: 'channel', feature: 'feature',
  id: 'competitorId', competitorid: 'competitorId', linkid: 'competitorId',
  utmsource: 'utm_source', utmmedium: 'utm_medium', utmcampaign: 'utm_campaign', utmterm: 'utm_term', utmcontent: 'utm_content',
  // The visitor password (decisions §16) and the branded domain (§15).
  password: 'password', domain: 'domain',
};
/** The declared fields a spec CSV can fill. */
const CSV_FIELDS = [...new Set(Object.values(LINK_CSV_COLUMNS))];
/** A spec CSV has at least one destination column. */
const SPEC_URL_KEYS: LinkFieldKey[] = ['originalUrl', 'webFallbackUrl', 'iosUrl', 'androidUrl'];

const BRANCH_REQUIRED = ['link_id', 'data'];

export interface ColumnPlan {
  format: CsvFormat;
  /** The platform export the header was recognized as (format `platform`). */
  platform?: PlatformFormat;
  /** Header index → target key. */
  targets: Map<number, string>;
  width: number;
}

export const COLUMNS_MESSAGE =
  'Invalid CSV columns: expected shortCode, originalUrl (or url), iosUrl, androidUrl, webUrl, campaign, channel, feature, tags, or a Branch link export (link_id, data, alias, url, ...)';

/** What `platform: auto` answers for a header it does not recognize (400 `validation.file`). */
export const AUTO_FORMATS_MESSAGE = `Unrecognized export: expected the link export of ${PLATFORM_FORMATS.map((f) => f.label).join(', ')}, a Branch link export, or the generic columns (shortCode, originalUrl, iosUrl, androidUrl, webUrl, tags, ...)`;

/**
 * Plans a file's columns for the form's `platform`: `auto` recognizes any known export from the
 * header (else 400 `validation.file` naming them); a platform's name reads that platform's export,
 * and a file with the generic or Branch columns as before (decisions: import.md).
 */
export function planColumns(header: string[], platform = 'csv'): ColumnPlan {
  const named = platformFormat(platform);
  const detected = named ? matchPlatform(named, header) : platform === 'auto' ? detectPlatform(header) : null;
  if (detected) return { format: 'platform', platform: detected.format, targets: detected.keys, width: header.length };
  if (platform !== 'auto') return planGeneric(header);
  try {
    return planGeneric(header);
  } catch (err) {
    if (err instanceof BadRequestError) throw new ValidationError({ file: AUTO_FORMATS_MESSAGE });
    throw err;
  }
}

/** Recognizes the spec's columns or a Branch link export; 400 for any other column set. */
function planGeneric(header: string[]): ColumnPlan {
  const lower = header.map((h) => h.trim().toLowerCase());
  if (BRANCH_REQUIRED.every((c) => lower.includes(c))) {
    const targets = new Map<number, string>();
    lower.forEach((h, i) => targets.set(i, `branch:${h}`));
    return { format: 'branch', targets, width: header.length };
  }
  const targets = new Map<number, string>();
  header.forEach((h, i) => {
    const target = SPEC_COLUMNS[normalizeCsvHeader(h)];
    if (target && ![...targets.values()].includes(target)) targets.set(i, target);
  });
  const values = new Set(targets.values());
  if (!SPEC_URL_KEYS.some((k) => values.has(k))) throw new BadRequestError(COLUMNS_MESSAGE);
  return { format: 'spec', targets, width: header.length };
}

/** Maps one row (cells in header order). Throws an Error whose message is the row's error. */
export function mapRow(plan: ColumnPlan, cells: string[], now = new Date()): MappedRow {
  if (cells.length !== plan.width) throw new Error(`Row has ${cells.length} columns, expected ${plan.width}`);
  const v: Record<string, string> = {};
  plan.targets.forEach((target, i) => {
    if (cells[i] !== undefined && cells[i] !== '') v[target] = cells[i];
  });
  if (plan.platform) return plan.platform.map(v, now);
  return plan.format === 'branch' ? mapBranch(v) : mapSpec(v);
}

/** A JSON cell (variants, redirectRules); a cell that is not JSON names its column. */
function jsonCell(column: string, raw: string | undefined): unknown {
  if (!set(raw)) return undefined;
  try {
    return JSON.parse(raw as string);
  } catch {
    throw new Error(`${column}: Must be JSON`);
  }
}

/** `true/false`, `yes/no`, `1/0` (any case); anything else stays text so validation names the column. */
function booleanCell(raw: string | undefined): boolean | string | undefined {
  const t = set(raw)?.toLowerCase();
  if (t === undefined) return undefined;
  if (['true', 'yes', '1'].includes(t)) return true;
  if (['false', 'no', '0'].includes(t)) return false;
  return raw;
}

/** A plain integer; anything else stays text so validation names the column. */
function integerCell(raw: string | undefined): number | string | undefined {
  const t = set(raw);
  if (t === undefined) return undefined;
  return /^\d{1,10}$/.test(t) ? Number(t) : t;
}

/** How a cell of each kind is read (a secret is never imported as is). */
const CELLS: Record<LinkFieldKind, (raw: string | undefined, key: string) => unknown> = {
  text: set,
  url: set,
  date: set,
  int: integerCell,
  boolean: booleanCell,
  tags: tagsOf,
  json: (raw, key) => jsonCell(key, raw),
  secret: () => undefined,
};

function mapSpec(v: Record<string, string>): MappedRow {
  const fields: Record<string, unknown> = {};
  for (const key of CSV_FIELDS) fields[key] = CELLS[linkField(key).kind](v[key], key);
  // A web URL alone is the destination too.
  fields.originalUrl ??= fields.webFallbackUrl;
  // Passwords keep their spaces; every other cell is trimmed.
  fields.password = v.password === undefined || v.password === '' ? undefined : v.password;
  fields.domain = set(v.domain);
  // Source-platform parameters: campaign → utm_campaign, channel → utm_medium, feature → utm_source.
  fields.utmParameters = utm(v.utm_source ?? v.feature, v.utm_medium ?? v.channel, v.utm_campaign ?? v.campaign, v.utm_term, v.utm_content);
  return {
    shortCode: set(v.shortCode) ?? null,
    competitorId: set(v.competitorId) ?? null,
    fields: compact(fields) as MappedRow['fields'],
  };
}

/**
 * A Branch link export: `data` is JSON with `$ios_url`, `$android_url`,
 * `$desktop_url`, `$fallback_url`, `~campaign`, `~channel`, `~feature`, `$og_*`...;
 * `alias` (else the last path segment of `url`) becomes the short code.
 */
function mapBranch(v: Record<string, string>): MappedRow {
  let data: Record<string, unknown> = {};
  if (v['branch:data']) {
    try {
      const parsed: unknown = JSON.parse(v['branch:data']);
      if (!isPlainObject(parsed)) throw new Error();
      data = parsed;
    } catch {
      throw new Error('Invalid JSON in the data column');
    }
  }
  const s = (key: string) => (typeof data[key] === 'string' ? set(data[key] as string) : undefined);
  let code = set(v['branch:alias']);
  if (!code && v['branch:url']) {
    try {
      code = set(new URL(v['branch:url']).pathname.split('/').filter(Boolean).pop());
    } catch {
      code = undefined;
    }
  }
  const tags = tagsOf(v['branch:tags']) ?? (Array.isArray(data['~tags']) ? (data['~tags'] as unknown[]).map(String) : undefined);
  return {
    shortCode: code ?? null,
    competitorId: set(v['branch:link_id']) ?? null,
    fields: compact({
      originalUrl: s('$fallback_url') ?? s('$desktop_url') ?? s('$canonical_url') ?? s('$original_url'),
      webFallbackUrl: s('$desktop_url'),
      iosUrl: s('$ios_url'),
      androidUrl: s('$android_url'),
      title: s('$og_title') ?? s('~title') ?? s('title'),
      description: s('$og_description'),
      ogTitle: s('$og_title'),
      ogDescription: s('$og_description'),
      ogImageUrl: s('$og_image_url'),
      deepLinkPath: s('$deeplink_path'),
      tags,
      utmParameters: utm(
        s('~feature') ?? set(v['branch:feature']),
        s('~channel') ?? set(v['branch:channel']),
        s('~campaign') ?? set(v['branch:campaign']),
        undefined,
        s('~stage') ?? set(v['branch:stage']),
      ),
    }),
  };
}
