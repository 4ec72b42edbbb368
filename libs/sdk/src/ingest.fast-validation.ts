import { isISO8601, isUUID } from 'class-validator';
import {
  MAX_EVENT_AGE_MS,
  MAX_EVENT_NAME_LENGTH,
  MAX_EVENTS_PER_BATCH,
  MAX_FUTURE_SKEW_MS,
  MAX_PROPERTIES_BYTES,
  SdkEventBatchDto,
  SdkEventDto,
  SdkInstallDto,
  SdkOpenDto,
} from './ingest.dto';

/**
 * Hand-written checks of the SDK payloads for the ingest hot path: they accept only bodies
 * the class-validator DTOs of `ingest.dto.ts` accept, and build the same values (lower-cased
 * ids and platform). They are allowed to be STRICTER, never more lenient: any body they do not
 * accept (null optional fields, surrogate pairs near a length bound, any error) goes through
 * the real ValidationPipe, which then answers with the contract's exact `validation` map.
 * `ingest.fast-validation.spec.ts` compares both on valid and invalid bodies.
 */
type Plain = Record<string, unknown>;

const INSTALL_KEYS = new Set(['installId', 'platform', 'osVersion', 'deviceModel', 'language', 'appVersion', 'clickId']);
const OPEN_KEYS = new Set(['installId', 'url']);
const EVENT_KEYS = new Set(['installId', 'eventName', 'properties', 'timestamp', 'eventId']);

function plainObject(value: unknown, keys: Set<string>): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const k in value) if (!keys.has(k)) return false;
  return true;
}

/** A string of 1..max UTF-16 units (class-validator counts a surrogate pair once: never laxer). */
const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length >= 1 && v.length <= max;
/** Absent, or a string of 0..max units (what `@IsOptional() @IsString() @MaxLength(max)` takes, minus null). */
const optStr = (v: unknown, max: number): boolean => v === undefined || (typeof v === 'string' && v.length <= max);
const uuid = (v: unknown): v is string => typeof v === 'string' && isUUID(v.toLowerCase(), 'all');

export function fastInstall(body: unknown): SdkInstallDto | null {
  if (!plainObject(body, INSTALL_KEYS)) return null;
  const { installId, platform, osVersion, deviceModel, language, appVersion, clickId } = body;
  if (!uuid(installId) || typeof platform !== 'string' || !str(osVersion, 32)) return null;
  const os = platform.toLowerCase();
  if (os !== 'ios' && os !== 'android') return null;
  if (!optStr(deviceModel, 100) || !optStr(language, 35) || !optStr(appVersion, 32)) return null;
  if (clickId !== undefined && !uuid(clickId)) return null;
  const dto: SdkInstallDto = { installId: installId.toLowerCase(), platform: os, osVersion };
  if (deviceModel !== undefined) dto.deviceModel = deviceModel as string;
  if (language !== undefined) dto.language = language as string;
  if (appVersion !== undefined) dto.appVersion = appVersion as string;
  if (clickId !== undefined) dto.clickId = clickId.toLowerCase();
  return dto;
}

export function fastOpen(body: unknown): SdkOpenDto | null {
  if (!plainObject(body, OPEN_KEYS) || !uuid(body.installId) || !optStr(body.url, 2048)) return null;
  const dto: SdkOpenDto = { installId: body.installId.toLowerCase() };
  if (body.url !== undefined) dto.url = body.url as string;
  return dto;
}

export function fastEvent(body: unknown, now = Date.now()): SdkEventDto | null {
  if (!plainObject(body, EVENT_KEYS)) return null;
  const { installId, eventName, properties, timestamp, eventId } = body;
  if (!uuid(installId) || !str(eventName, MAX_EVENT_NAME_LENGTH)) return null;
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return null;
    // Bytes >= UTF-16 units: a JSON shorter than the limit in units may still be over it in bytes.
    const json = JSON.stringify(properties);
    if (json.length > MAX_PROPERTIES_BYTES / 3 && Buffer.byteLength(json) > MAX_PROPERTIES_BYTES) return null;
  }
  if (timestamp !== undefined) {
    if (typeof timestamp !== 'string' || !isISO8601(timestamp, { strict: true })) return null;
    const t = Date.parse(timestamp);
    if (Number.isNaN(t) || t > now + MAX_FUTURE_SKEW_MS || t < now - MAX_EVENT_AGE_MS) return null;
  }
  if (eventId !== undefined && !(typeof eventId === 'string' && isUUID(eventId, 'all'))) return null;
  const dto: SdkEventDto = { installId: installId.toLowerCase(), eventName };
  if (properties !== undefined) dto.properties = properties as Record<string, unknown>;
  if (timestamp !== undefined) dto.timestamp = timestamp;
  if (eventId !== undefined) dto.eventId = eventId;
  return dto;
}

export function fastEventBatch(body: unknown, now = Date.now()): SdkEventBatchDto | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  for (const k in body) if (k !== 'events') return null;
  const events = (body as Plain).events;
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_EVENTS_PER_BATCH) return null;
  const out: SdkEventDto[] = [];
  for (const e of events) {
    const dto = fastEvent(e, now);
    if (!dto) return null;
    out.push(dto);
  }
  return { events: out };
}
