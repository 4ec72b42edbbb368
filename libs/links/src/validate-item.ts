import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { flattenValidationErrors, ValidationMap } from '@dl/platform/http';
import { URL_MESSAGE } from './http-url';
import { isPlainObject } from './validators';

/** Validates one plain object against a DTO class with the global pipe's rules. */
export function validateItem<T extends object>(cls: ClassConstructor<T>, plain: unknown): { value: T; errors: ValidationMap } {
  if (!isPlainObject(plain)) return { value: {} as T, errors: { '': 'Must be an object' } };
  const value = plainToInstance(cls, plain, { enableImplicitConversion: false });
  const errors = flattenValidationErrors(
    validateSync(value, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: false }),
  );
  return { value, errors };
}

const URL_FIELDS = /(^|\.)(originalUrl|iosUrl|androidUrl|webFallbackUrl|iosUniversalLink|androidAppLink|ogImageUrl|expiredUrl|(variants|redirectRules)\[\d+\]\.url)$/;

/** The field a batch error names first: a URL field, then the attribution window, then the first. */
export function firstField(errors: ValidationMap): string {
  const keys = Object.keys(errors);
  return (
    keys.find((k) => URL_FIELDS.test(k) && errors[k] === URL_MESSAGE) ??
    keys.find((k) => /(^|\.)attributionWindowHours$/.test(k)) ??
    keys[0]
  );
}

/** Prefixes every key of a validation map with the item's path (`links[3]`). */
export function prefixErrors(prefix: string, errors: ValidationMap): ValidationMap {
  const out: ValidationMap = {};
  for (const [k, v] of Object.entries(errors)) out[k ? `${prefix}.${k}` : prefix] = v;
  return out;
}
