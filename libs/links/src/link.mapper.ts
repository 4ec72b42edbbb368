import { LinkChangedWebhookData } from '@dl/platform/queue';
import { LINK_PUBLIC_FIELDS, linkField } from '@dl/link-fields';
import { LinkCreateResponseDto, LinkResponseDto, LinkValuesResponse } from './link-response.dto';
import { utmToSnake } from './link-values';
import { LinkRecord, LinkValues } from './link.types';
import { snake, Snake } from './snake-case';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function shortUrl(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${code}`;
}

/** A link's own short URL: `https://<domain>/<code>` on a branded domain, SHORT_LINK_BASE_URL/<code> on the service host. */
export function linkShortUrl(link: Pick<LinkRecord, 'domainName' | 'shortCode'>, baseUrl: string): string {
  return link.domainName ? `https://${link.domainName}/${link.shortCode}` : shortUrl(baseUrl, link.shortCode);
}

/** The host a link answers on: its branded domain, or the host of SHORT_LINK_BASE_URL. */
export function linkDomain(link: Pick<LinkRecord, 'domainName'>, baseUrl: string): string {
  return link.domainName || new URL(baseUrl).host;
}

/** Derived state: an expired link is expired the moment `expiresAt` passes (no sweeper). */
export function linkStatus(link: Pick<LinkRecord, 'isActive' | 'expiresAt'>, now = Date.now()): 'active' | 'inactive' | 'expired' {
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return link.isActive ? 'active' : 'inactive';
}

/** The one mapping of the editable values to a response (every read shape spreads it). */
export function toLinkValuesResponse(link: LinkValues): LinkValuesResponse {
  // The password (even hashed) never leaves the service: only the fields reads show.
  const out: Record<string, unknown> = {};
  for (const key of LINK_PUBLIC_FIELDS) out[key] = linkField(key).kind === 'date' ? iso(link[key] as Date | null) : link[key];
  out.hasPassword = link.passwordHash !== null;
  return out as LinkValuesResponse;
}

/** The Cloud read shape (camelCase): single read, PUT, bulk-update items, webhook `data`. */
export function toLinkResponse(link: LinkRecord, baseUrl: string): LinkResponseDto {
  return {
    id: link.id,
    userId: link.userId,
    organizationId: link.organizationId,
    projectId: link.projectId,
    templateId: link.templateId,
    templateSlug: link.templateSlug,
    domain: linkDomain(link, baseUrl),
    shortCode: link.shortCode,
    shortUrl: linkShortUrl(link, baseUrl),
    ...toLinkValuesResponse(link),
    isActive: link.isActive,
    status: linkStatus(link),
    clickCount: link.clickCount,
    migrationMetadata: link.migrationMetadata,
    safety: { status: link.safetyStatus, reason: link.safetyReason, checkedAt: iso(link.safetyCheckedAt) },
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}

/** The Cloud create shape: the read shape's top-level keys in snake_case, UTM keys as `utm_*`, no state counters. */
export function toLinkCreateResponse(link: LinkRecord, baseUrl: string): LinkCreateResponseDto {
  const { status: _status, clickCount: _clicks, utmParameters, ...read } = toLinkResponse(link, baseUrl);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(read)) out[snake(key)] = value;
  out.utm_parameters = utmToSnake(utmParameters);
  return out as unknown as LinkCreateResponseDto;
}

/*
 * Compile-time agreement of the shapes: every editable value appears in the read class, and the
 * create class has exactly the read class's keys in snake_case (a field missing from one of the
 * response classes, or left over in one, is a type error here, not a silent gap in the API).
 */
type Missing<Want extends PropertyKey, Have extends PropertyKey> = Record<Exclude<Want, Have>, never>;
type CreateKeys = Snake<Exclude<keyof LinkResponseDto, 'status' | 'clickCount'> & string>;
export const LINK_SHAPES_AGREE: [
  Missing<keyof LinkValuesResponse, keyof LinkResponseDto>,
  Missing<CreateKeys, keyof LinkCreateResponseDto>,
  Missing<keyof LinkCreateResponseDto, CreateKeys>,
] = [{}, {}, {}];

/** Webhook `data` for link.* events: the read shape plus `migration_metadata` (as in link.clicked). */
export function toLinkEventData(link: LinkRecord, baseUrl: string): LinkChangedWebhookData {
  return { ...toLinkResponse(link, baseUrl), migration_metadata: link.migrationMetadata };
}
