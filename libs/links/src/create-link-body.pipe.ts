import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { createValidationPipe } from '@dl/platform/http';
import { isHttpUrl, isPlainObject, isUuid, parseIsoDate } from '@dl/platform/validation';
import { CreateLinkDto } from './link.dto';
import { CUSTOM_CODE_PATTERN } from './short-code';

/** Scalar fields of CreateLinkDto with a string length limit (as declared by @IsStringMax there). */
const STRING_MAX: Readonly<Record<string, number>> = {
  title: 500,
  description: 2000,
  deepLinkPath: 500,
  appScheme: 100,
  ogTitle: 300,
  ogDescription: 1000,
};
const URL_FIELDS = new Set(['originalUrl', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'iosUniversalLink', 'androidAppLink', 'ogImageUrl']);

/**
 * True only for bodies the class-validator rules of CreateLinkDto certainly accept: every key
 * known and scalar (or `tags`), each value passing the same predicate the decorator uses, null
 * on optional fields. Anything else (nested objects, unknown keys, any doubt) returns false.
 */
export function plainlyValidCreateBody(body: unknown): body is Record<string, unknown> {
  if (!isPlainObject(body) || !isUuid(body.templateId)) return false;
  for (const key of Object.keys(body)) {
    if (key === 'templateId') continue;
    const v = body[key];
    if (v === null) {
      // @IsOptional: null skips the field's validators.
      if (key in STRING_MAX || URL_FIELDS.has(key) || OTHER_FIELDS.has(key)) continue;
      return false;
    }
    const max = STRING_MAX[key];
    if (max !== undefined) {
      if (typeof v !== 'string' || v.length > max) return false;
    } else if (URL_FIELDS.has(key)) {
      if (!isHttpUrl(v)) return false;
    } else if (key === 'customCode') {
      if (typeof v !== 'string' || !CUSTOM_CODE_PATTERN.test(v)) return false;
    } else if (key === 'projectId') {
      if (!isUuid(v)) return false;
    } else if (key === 'attributionWindowHours') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 2160) return false;
    } else if (key === 'expiresAt') {
      const d = parseIsoDate(v);
      if (d === null || d.getTime() <= Date.now()) return false;
    } else if (key === 'tags') {
      if (!Array.isArray(v) || v.length > 10 || !v.every((s) => typeof s === 'string' && s.trim().length > 0 && s.trim().length <= 40)) return false;
    } else {
      return false;
    }
  }
  return true;
}
const OTHER_FIELDS = new Set(['customCode', 'projectId', 'attributionWindowHours', 'expiresAt', 'tags']);

/**
 * `POST /api/links` body: the common body (scalar fields) is accepted by the check above and
 * becomes a CreateLinkDto without class-transformer/class-validator (~8% of a create's CPU);
 * every other body goes through the global validation pipe's rules, which produce every error
 * message. The parameter is typed so that the global pipe leaves it to this one.
 */
@Injectable()
export class CreateLinkBodyPipe implements PipeTransform<unknown, Promise<CreateLinkDto>> {
  private readonly full = createValidationPipe();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<CreateLinkDto> {
    if (plainlyValidCreateBody(value)) return Object.assign(new CreateLinkDto(), value);
    return (await this.full.transform(value, { ...metadata, metatype: CreateLinkDto })) as CreateLinkDto;
  }
}
