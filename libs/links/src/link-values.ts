import { ValidationError } from '@dl/platform/http';
import { URL_MESSAGE } from './http-url';
import { LinkFieldsDto, TargetingRulesDto, UtmParametersDto } from './link-fields.dto';
import { LinkValues, TargetingRules, UtmParameters } from './link.types';
import { INVALID_URL_MESSAGE } from './validation-messages';
import { isPlainObject, parseIsoDate } from './validators';

export const DEFAULT_ATTRIBUTION_WINDOW_HOURS = 168;

const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;

export function normalizeUtm(dto: UtmParametersDto | Record<string, unknown> | null | undefined): UtmParameters | null {
  if (!dto) return null;
  const src = dto as Record<string, unknown>;
  const out: UtmParameters = {};
  for (const key of UTM_KEYS) {
    const value = src[key] ?? src[`utm_${key}`];
    if (typeof value === 'string' && value.length) out[key] = value;
  }
  return Object.keys(out).length ? out : null;
}

/** `utm_*` keys, as the Cloud create response shows them. */
export function utmToSnake(utm: UtmParameters | null): Record<string, string> | null {
  if (!utm) return null;
  const out: Record<string, string> = {};
  for (const key of UTM_KEYS) if (utm[key] !== undefined) out[`utm_${key}`] = utm[key] as string;
  return out;
}

export function normalizeTargeting(dto: TargetingRulesDto | Record<string, unknown> | null | undefined): TargetingRules | null {
  if (!dto) return null;
  const src = dto as Record<string, unknown>;
  const out: TargetingRules = {};
  const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : undefined);
  const countries = list(src.countries);
  const languages = list(src.languages);
  const devices = [...new Set([...(list(src.devices) ?? []), ...(list(src.platforms) ?? [])])];
  if (countries?.length) out.countries = [...new Set(countries)];
  if (devices.length) out.devices = devices;
  if (languages?.length) out.languages = [...new Set(languages)];
  return Object.keys(out).length ? out : null;
}

/** Fields of a validated DTO the caller supplied (null = unset), normalized. */
export function suppliedFields(dto: LinkFieldsDto): Partial<LinkValues> {
  const out: Partial<LinkValues> = {};
  const d = dto as Record<string, unknown>;
  const copy = [
    'originalUrl', 'title', 'description', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'appScheme',
    'iosUniversalLink', 'androidAppLink', 'deepLinkPath', 'deepLinkParameters', 'attributionWindowHours',
    'ogTitle', 'ogDescription', 'ogImageUrl',
  ] as const;
  for (const key of copy) if (d[key] !== undefined) (out as Record<string, unknown>)[key] = d[key];
  if (d.utmParameters !== undefined) out.utmParameters = normalizeUtm(dto.utmParameters);
  if (d.targetingRules !== undefined) out.targetingRules = normalizeTargeting(dto.targetingRules);
  if (d.tags !== undefined) out.tags = dto.tags === null ? [] : [...new Set(dto.tags)];
  if (d.expiresAt !== undefined) out.expiresAt = dto.expiresAt === null ? null : parseIsoDate(dto.expiresAt);
  return out;
}

/** A template's stored defaults: normalized link fields (expiresAt as ISO) plus `expiresInDays`. */
export interface TemplateDefaults extends Partial<Omit<LinkValues, 'expiresAt'>> {
  expiresAt?: string | null;
  expiresInDays?: number;
}

export function templateDefaultsFromFields(fields: Partial<LinkValues>, expiresInDays?: number): TemplateDefaults {
  const { expiresAt, ...rest } = fields;
  const out: TemplateDefaults = { ...rest };
  for (const [k, v] of Object.entries(out)) if (v === null) delete (out as Record<string, unknown>)[k];
  if (expiresAt) out.expiresAt = expiresAt.toISOString();
  if (expiresInDays !== undefined) out.expiresInDays = expiresInDays;
  return out;
}

export function readTemplateDefaults(json: unknown): TemplateDefaults {
  return isPlainObject(json) ? (json as TemplateDefaults) : {};
}

/**
 * The values of a new link: what the request supplied, else the template's
 * default, else the product default. 400 when no originalUrl results or the
 * resulting expiry is not in the future.
 */
export function resolveNewLink(defaults: TemplateDefaults, given: Partial<LinkValues>, now = new Date()): LinkValues {
  const pick = <K extends keyof LinkValues>(key: K, fallback: LinkValues[K]): LinkValues[K] => {
    if (given[key] !== undefined && given[key] !== null) return given[key] as LinkValues[K];
    if (given[key] === null) return fallback;
    const d = (defaults as Record<string, unknown>)[key];
    return d !== undefined && d !== null ? (d as LinkValues[K]) : fallback;
  };
  let expiresAt: Date | null = null;
  if (given.expiresAt !== undefined) expiresAt = given.expiresAt;
  else if (typeof defaults.expiresInDays === 'number') expiresAt = new Date(now.getTime() + defaults.expiresInDays * 86_400_000);
  else if (defaults.expiresAt) expiresAt = new Date(defaults.expiresAt);
  const values: LinkValues = {
    originalUrl: pick('originalUrl', '' as string),
    title: pick('title', null),
    description: pick('description', null),
    iosUrl: pick('iosUrl', null),
    androidUrl: pick('androidUrl', null),
    webFallbackUrl: pick('webFallbackUrl', null),
    appScheme: pick('appScheme', null),
    iosUniversalLink: pick('iosUniversalLink', null),
    androidAppLink: pick('androidAppLink', null),
    deepLinkPath: pick('deepLinkPath', null),
    deepLinkParameters: pick('deepLinkParameters', null),
    attributionWindowHours: pick('attributionWindowHours', DEFAULT_ATTRIBUTION_WINDOW_HOURS),
    utmParameters: pick('utmParameters', null),
    targetingRules: pick('targetingRules', null),
    ogTitle: pick('ogTitle', null),
    ogDescription: pick('ogDescription', null),
    ogImageUrl: pick('ogImageUrl', null),
    tags: pick('tags', []),
    expiresAt,
  };
  if (!values.originalUrl) throw new ValidationError({ originalUrl: URL_MESSAGE }, INVALID_URL_MESSAGE);
  if (values.expiresAt && values.expiresAt.getTime() <= now.getTime()) {
    throw new ValidationError({ expiresAt: 'Must be a future date' });
  }
  return values;
}
