import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { findReservedKey, flattenValidationErrors, RESERVED_KEY_MESSAGE, ValidationError, ValidationMap } from '@dl/platform/http';
import { isPlainObject, URL_MESSAGE } from '@dl/platform/validation';
import { LINK_URL_PATH } from './validation-messages';

/** Validates one plain object against a DTO class with the global pipe's rules. */
export function validateItem<T extends object>(cls: ClassConstructor<T>, plain: unknown): { value: T; errors: ValidationMap } {
  if (!isPlainObject(plain)) return { value: {} as T, errors: { '': 'Must be an object' } };
  // (A CSV import's column names reach here without the global pipe.)
  const reserved = findReservedKey(plain);
  if (reserved !== null) return { value: {} as T, errors: { [reserved]: RESERVED_KEY_MESSAGE } };
  const value = plainToInstance(cls, plain, { enableImplicitConversion: false });
  const errors = flattenValidationErrors(
    validateSync(value, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: false }),
  );
  return { value, errors };
}

/** The field a batch error names first: a URL field, then the attribution window, then the first. */
export function firstField(errors: ValidationMap): string {
  const keys = Object.keys(errors);
  return (
    keys.find((k) => LINK_URL_PATH.test(k) && errors[k] === URL_MESSAGE) ??
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

/** 400 naming the first failing item: `Validation error: links[3].originalUrl: Must be a valid URL`. */
export function itemError(path: string, errors: ValidationMap): ValidationError {
  const validation = prefixErrors(path, errors);
  const first = firstField(validation);
  return new ValidationError(validation, `Validation error: ${first}: ${validation[first]}`);
}

/** Runs one item's step; a validation error it raises names the item's path (none: left as is). */
export async function forItem<T>(path: string | undefined, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (path !== undefined && err instanceof ValidationError && err.options.validation) throw itemError(path, err.options.validation);
    throw err;
  }
}
