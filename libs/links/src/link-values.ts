import { hashSecret, normalizeUrl, ValidationError } from '@dl/platform/http';
import { isPlainObject, parseIsoDate, URL_MESSAGE, UTM_KEYS, utmParameters } from '@dl/platform/validation';
import { LINK_BOOLEAN_FIELDS, LINK_URL_FIELDS } from '@dl/link-fields';
import { LINK_VALUE_FALLBACKS } from './link-columns';
import { LinkFieldsDto, RedirectRuleDto, TargetingRulesDto, UtmParametersDto } from './link-fields.dto';
import { CreateLinkDto } from './link.dto';
import { LinkValues, NewLinkRow, RedirectRule, RedirectRuleConditions, TargetingRules, UtmParameters } from './link.types';
import { generateShortCode } from './short-code';
import { INVALID_URL_MESSAGE } from './validation-messages';

export function normalizeUtm(dto: UtmParametersDto | Record<string, unknown> | null | undefined): UtmParameters | null {
  return utmParameters(dto);
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

/** Trimmed, case-insensitively unique (the first spelling wins). */
export function normalizeTags(tags: string[] | null | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags ?? []) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** Only the conditions given, lists de-duplicated, countries upper-cased, languages lower-cased. */
function normalizeRule(rule: RedirectRuleDto): RedirectRule {
  const c = rule.conditions as Record<string, unknown>;
  const conditions: RedirectRuleConditions = {};
  const list = (v: unknown, f: (s: string) => string = (s) => s) => [...new Set((v as string[]).map(f))];
  if (Array.isArray(c.countries)) conditions.countries = list(c.countries, (s) => s.toUpperCase());
  if (Array.isArray(c.languages)) conditions.languages = list(c.languages, (s) => s.toLowerCase());
  if (Array.isArray(c.devices)) conditions.devices = list(c.devices);
  if (Array.isArray(c.os)) conditions.os = list(c.os);
  if (Array.isArray(c.browsers)) conditions.browsers = list(c.browsers);
  if (isPlainObject(c.query)) conditions.query = { ...(c.query as Record<string, string>) };
  if (typeof c.after === 'string') conditions.after = (parseIsoDate(c.after) as Date).toISOString();
  if (typeof c.before === 'string') conditions.before = (parseIsoDate(c.before) as Date).toISOString();
  return { conditions, url: normalizeUrl(rule.url) };
}

/** Fields of a validated DTO the caller supplied (null = unset), normalized (URLs as `new URL(v).href`). */
export function suppliedFields(dto: LinkFieldsDto): Partial<LinkValues> {
  const out: Record<string, unknown> = {};
  const d = dto as Record<string, unknown>;
  for (const key of Object.keys(LINK_VALUE_FALLBACKS)) if (d[key] !== undefined) out[key] = d[key];
  for (const key of LINK_URL_FIELDS) {
    const v = out[key];
    if (typeof v === 'string') out[key] = normalizeUrl(v);
  }
  if (d.utmParameters !== undefined) out.utmParameters = normalizeUtm(dto.utmParameters);
  if (d.targetingRules !== undefined) out.targetingRules = normalizeTargeting(dto.targetingRules);
  if (d.tags !== undefined) out.tags = normalizeTags(dto.tags);
  if (d.variants !== undefined) out.variants = dto.variants?.map((v) => ({ url: normalizeUrl(v.url), weight: v.weight })) ?? null;
  if (d.redirectRules !== undefined) out.redirectRules = dto.redirectRules?.map(normalizeRule) ?? null;
  // Booleans: null means "back to the default".
  for (const key of LINK_BOOLEAN_FIELDS) if (d[key] === null) out[key] = LINK_VALUE_FALLBACKS[key];
  if (d.expiresAt !== undefined) out.expiresAt = dto.expiresAt === null ? null : parseIsoDate(dto.expiresAt);
  return out as Partial<LinkValues>;
}

/** A template's stored defaults: normalized link fields (expiresAt as ISO) plus `expiresInDays`. */
export interface TemplateDefaults extends Partial<Omit<LinkValues, 'expiresAt'>> {
  expiresAt?: string | null;
  expiresInDays?: number;
  /** The domain new links go on (checked when a link is created). */
  domain?: string;
}

/** The domain a new link asks for: its own `domain`, else its template's default. */
export function requestedDomain(dto: { domain?: string }, template: { defaults: unknown }): string | undefined {
  if (dto.domain !== undefined) return dto.domain;
  const d = readTemplateDefaults(template.defaults).domain;
  return typeof d === 'string' ? d : undefined;
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
  const values = { ...LINK_VALUE_FALLBACKS } as Record<string, unknown>;
  for (const key of Object.keys(LINK_VALUE_FALLBACKS) as Array<keyof LinkValues>) {
    if (key === 'expiresAt') continue;
    const g = given[key];
    const d = (defaults as Record<string, unknown>)[key];
    if (g !== undefined && g !== null) values[key] = g;
    else if (g === undefined && d !== undefined && d !== null) values[key] = d;
  }
  if (given.expiresAt !== undefined) values.expiresAt = given.expiresAt;
  else if (typeof defaults.expiresInDays === 'number') values.expiresAt = new Date(now.getTime() + defaults.expiresInDays * 86_400_000);
  else if (defaults.expiresAt) values.expiresAt = new Date(defaults.expiresAt);
  return checkedNewLink(values as unknown as LinkValues, now);
}

function checkedNewLink(values: LinkValues, now: Date): LinkValues {
  if (!values.originalUrl) throw new ValidationError({ originalUrl: URL_MESSAGE }, INVALID_URL_MESSAGE);
  if (values.expiresAt && values.expiresAt.getTime() <= now.getTime()) {
    throw new ValidationError({ expiresAt: 'Must be a future date' });
  }
  return values;
}

/**
 * The row of a new link from a validated create body and its template: what single
 * create, bulk create (per item) and nothing else build, so both paths stay one.
 */
export function newLinkRow(
  owner: { organizationId: string; userId: string },
  dto: CreateLinkDto,
  template: { id: string; slug: string; defaults: unknown },
  place: { domainId: string | null; domainName: string | null },
  now = new Date(),
): NewLinkRow {
  const values = resolveNewLink(readTemplateDefaults(template.defaults), suppliedFields(dto), now);
  return {
    ...values,
    domainId: place.domainId,
    domainName: place.domainName,
    organizationId: owner.organizationId,
    userId: owner.userId,
    projectId: dto.projectId ?? null,
    templateId: template.id,
    templateSlug: template.slug,
    shortCode: dto.customCode ?? generateShortCode(),
    custom: dto.customCode !== undefined,
    migrationMetadata: null,
  };
}

/**
 * The stored hash of a `password` field: undefined when not given, null to remove it.
 * Hashing is async (scrypt off the event loop), so it is applied after the sync checks.
 */
export async function passwordHashOf(password: string | null | undefined): Promise<string | null | undefined> {
  if (password === undefined) return undefined;
  return password === null ? null : hashSecret(password);
}
