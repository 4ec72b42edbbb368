import { registerDecorator, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';

function decorator(
  name: string,
  validate: (value: unknown, object: object) => boolean,
  message: string | ((args: ValidationArguments) => string),
  options: ValidationOptions = {},
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options },
      validator: {
        // Every validator of a property runs, even after one failed: a test that throws on a value
        // another one refuses (null where an object belongs) counts as failing, never as a 500.
        validate: (value: unknown, args?: ValidationArguments) => {
          try {
            return validate(value, args?.object ?? {});
          } catch {
            return false;
          }
        },
      },
    });
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strictly an ISO 8601 date-time (or date) that Date can parse. */
export function parseIsoDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An ISO 8601 date in the future: `Must be a future date` (a malformed one: `Must be an ISO 8601 date`). */
export function IsFutureIsoDate(options: ValidationOptions = {}): PropertyDecorator {
  return decorator(
    'isFutureIsoDate',
    (v) => {
      const d = parseIsoDate(v);
      return d !== null && d.getTime() > Date.now();
    },
    (args) => (parseIsoDate(args.value) ? 'Must be a future date' : 'Must be an ISO 8601 date'),
    options,
  );
}

export function IsPlainObject(message = 'Must be an object', options: ValidationOptions = {}): PropertyDecorator {
  return decorator('isPlainObject', isPlainObject, message, options);
}

/**
 * Every member of an array is a plain object (quiet when the value is not an array: @IsArray
 * says so). `@ValidateNested({ each: true })` alone passes a member that is itself an array.
 */
export function EachPlainObject(message = 'Must be an array of objects'): PropertyDecorator {
  return decorator('eachPlainObject', (v) => !Array.isArray(v) || v.every(isPlainObject), message);
}

/** A flat object of string, number or boolean values (deep-link parameters): at most 50 keys. */
export function IsFlatParameters(options: ValidationOptions = {}): PropertyDecorator {
  return decorator(
    'isFlatParameters',
    (v) =>
      isPlainObject(v) &&
      Object.keys(v).length <= 50 &&
      Object.entries(v).every(
        ([k, x]) =>
          k.length > 0 &&
          k.length <= 100 &&
          (typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)) || (typeof x === 'string' && x.length <= 1000)),
      ),
    'Must be an object of string, number or boolean values',
    options,
  );
}

export function IsStringMax(max: number, options: ValidationOptions = {}): PropertyDecorator {
  return decorator('isStringMax', (v) => typeof v === 'string' && v.length <= max, `Must be a string of at most ${max} characters`, options);
}

export function IsNonEmptyStringMax(max: number, options: ValidationOptions = {}): PropertyDecorator {
  return decorator(
    'isNonEmptyStringMax',
    (v) => typeof v === 'string' && v.trim().length > 0 && v.length <= max,
    `Must be a non-empty string of at most ${max} characters`,
    options,
  );
}

export function IsIntBetween(min: number, max: number, message: string, options: ValidationOptions = {}): PropertyDecorator {
  return decorator('isIntBetween', (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max, message, options);
}

export function IsStrictBoolean(options: ValidationOptions = {}): PropertyDecorator {
  return decorator('isStrictBoolean', (v) => typeof v === 'boolean', 'Must be a boolean', options);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

export function IsUuidField(options: ValidationOptions = {}): PropertyDecorator {
  return decorator('isUuidField', isUuid, 'Must be a valid UUID', options);
}

export function IsStringArrayOf(
  test: (s: string) => boolean,
  message: string,
  maxItems = 250,
  options: ValidationOptions = {},
): PropertyDecorator {
  return decorator(
    'isStringArrayOf',
    (v) => Array.isArray(v) && v.length <= maxItems && v.every((s) => typeof s === 'string' && test(s)),
    message,
    options,
  );
}

/**
 * An optional field that has no null: left out, it is not checked; `null` is checked by its other
 * validators, which refuse it. (`@IsOptional()` would pass a null through to a service that
 * cannot store it.)
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/** Always fails when the property is present (immutable fields such as `shortCode`). */
export function IsForbidden(message: string): PropertyDecorator {
  return decorator('isForbidden', (v) => v === undefined, message);
}

/** A rule of its own (`(value, the whole object) => ok`) with its message. */
export function IsValidWhen(test: (value: unknown, object: object) => boolean, message: string): PropertyDecorator {
  return decorator(`isValidWhen:${message}`, test, message);
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** An assigned ISO 3166-1 alpha-2 code (ICU knows its name). */
export function isCountryCode(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) return false;
  try {
    const name = regionNames.of(value);
    return !!name && name !== value && name !== 'Unknown Region';
  } catch {
    return false;
  }
}

export function IsCountryCode(): PropertyDecorator {
  return decorator(
    'isCountryCode',
    (v) => Array.isArray(v) && v.length > 0 && v.length <= 250 && v.every(isCountryCode),
    'Must be an array of ISO 3166-1 alpha-2 country codes',
  );
}

/** A flat object of string → string (at most `maxKeys` keys). */
export function IsStringMap(maxKeys: number, maxKey: number, maxValue: number): PropertyDecorator {
  return decorator(
    'isStringMap',
    (v) =>
      isPlainObject(v) &&
      Object.keys(v).length > 0 &&
      Object.keys(v).length <= maxKeys &&
      Object.entries(v).every(([k, x]) => k.length > 0 && k.length <= maxKey && typeof x === 'string' && x.length <= maxValue),
    `Must be an object of at most ${maxKeys} string values`,
  );
}
