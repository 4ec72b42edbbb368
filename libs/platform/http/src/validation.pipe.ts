import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { type FieldError, findInJson, MAX_JSON_DEPTH } from '@dl/platform/validation';
import { ValidationError, ValidationMap } from './errors';
import { findUnstorableText, toStorableJson, UNSTORABLE_TEXT_MESSAGE } from './hostile-text';

const VISITOR_TEXT = Symbol.for('dl.visitorText');

/**
 * Marks a body DTO whose text comes from anonymous visitors (the pixel): NUL and lone
 * surrogates are stripped from it instead of refused (decisions §14).
 */
export function StripsUnstorableText(): ClassDecorator {
  return (target) => {
    (target as unknown as Record<symbol, boolean>)[VISITOR_TEXT] = true;
  };
}

/** A check of a whole body or query: where it fails, its message, and the cleaned copy a visitor DTO gets instead. */
interface BodyRule {
  find: (value: unknown) => string | null;
  message: string;
  clean: (value: unknown) => unknown;
}

function applyRule(rule: BodyRule, value: unknown, metadata: Pick<ArgumentMetadata, 'type' | 'metatype'>): unknown {
  if (metadata.type !== 'body' && metadata.type !== 'query') return value;
  const path = rule.find(value);
  if (path === null) return value;
  if (metadata.metatype && (metadata.metatype as unknown as Record<symbol, boolean>)[VISITOR_TEXT]) return rule.clean(value);
  throw new ValidationError({ [path]: rule.message });
}

/**
 * Text Postgres cannot store (NUL, lone surrogates) anywhere in a body or query, keys
 * included: 400 `Validation error` naming the field, before any other rule runs. A
 * visitor DTO (StripsUnstorableText) gets a cleaned copy instead.
 */
export function refuseUnstorableText(value: unknown, metadata: Pick<ArgumentMetadata, 'type' | 'metatype'>): unknown {
  return applyRule({ find: findUnstorableText, message: UNSTORABLE_TEXT_MESSAGE, clean: toStorableJson }, value, metadata);
}

/** A key class-transformer cannot take: it drops it, and a non-function value under it throws (a 500). */
export const RESERVED_KEY_MESSAGE = 'Must not be named constructor or __proto__';
const RESERVED_KEYS = new Set(['constructor', '__proto__']);

/** The path (`a.b[0]`) of the first key named `constructor` or `__proto__` in a parsed JSON value, or null. */
export function findReservedKey(value: unknown): string | null {
  return findInJson(value, { key: (key, parent) => (RESERVED_KEYS.has(key) ? (parent ? `${parent}.${key}` : key) : null) });
}

/** A copy without keys named `constructor` or `__proto__`, at any depth (what visitors send is cleaned). */
function withoutReservedKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => withoutReservedKeys(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!RESERVED_KEYS.has(k)) out[k] = withoutReservedKeys(v, depth + 1);
  return out;
}

/**
 * A key named `constructor` or `__proto__` anywhere in a body or query: 400 naming it (class-transformer
 * would drop it silently, or fail on it). A visitor DTO (StripsUnstorableText) gets a copy without it.
 */
export function refuseReservedKeys(value: unknown, metadata: Pick<ArgumentMetadata, 'type' | 'metatype'>): unknown {
  return applyRule({ find: findReservedKey, message: RESERVED_KEY_MESSAGE, clean: withoutReservedKeys }, value, metadata);
}

export const TOO_DEEP_MESSAGE = `Must not be nested more than ${MAX_JSON_DEPTH} levels deep`;

/** True when a value nests objects and arrays deeper than MAX_JSON_DEPTH (walks at most that deep, builds nothing). */
function nestsTooDeep(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsTooDeep(value[i], depth + 1)) return true;
    return false;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) if (nestsTooDeep((value as Record<string, unknown>)[keys[i]], depth + 1)) return true;
  return false;
}

/** The path of the first value nested deeper than MAX_JSON_DEPTH objects and arrays, or null (a check per SDK call: no allocation unless found). */
export function findTooDeep(value: unknown): string | null {
  if (!nestsTooDeep(value, 0)) return null;
  let path = '';
  let node = value;
  for (let depth = 0; depth < MAX_JSON_DEPTH; depth++) {
    const entries: Array<[string, unknown]> = Array.isArray(node)
      ? node.map((v, i) => [`[${i}]`, v])
      : Object.entries(node as object).map(([k, v]) => [path ? `.${k}` : k, v]);
    const next = entries.find(([, v]) => nestsTooDeep(v, depth + 1));
    if (!next) break;
    path += next[0];
    node = next[1];
  }
  return path || 'body';
}

/**
 * A body or query nested deeper than MAX_JSON_DEPTH: 400 naming where (the recursive steps after it,
 * Nest's own included, would overflow the stack on a 100 KB `[[[[…]]]]`: a 500). A visitor DTO
 * gets the cut copy toStorableJson makes.
 */
export function refuseDeepNesting(value: unknown, metadata: Pick<ArgumentMetadata, 'type' | 'metatype'>): unknown {
  return applyRule({ find: findTooDeep, message: TOO_DEEP_MESSAGE, clean: toStorableJson }, value, metadata);
}

class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const shallow = refuseDeepNesting(value, metadata);
    return super.transform(refuseReservedKeys(refuseUnstorableText(shallow, metadata), metadata), metadata);
  }
}

/**
 * Per-field message overrides: a constraint name (e.g. `isUrl`) carrying one of these
 * contexts renders its message as given. DTOs set messages with `{ message: '...' }`.
 */
function firstMessage(error: FieldError): string {
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) return 'Unknown field';
  const values = Object.values(constraints);
  return values[0] ?? 'Invalid value';
}

/** Flattens nested class-validator errors into `{ "a.b[0]": message }`. */
export function flattenValidationErrors(errors: readonly FieldError[], parent = ''): ValidationMap {
  const out: ValidationMap = {};
  for (const error of errors) {
    const path = parent
      ? /^\d+$/.test(error.property)
        ? `${parent}[${error.property}]`
        : `${parent}.${error.property}`
      : error.property;
    if (error.constraints && Object.keys(error.constraints).length) out[path] = firstMessage(error);
    if (error.children?.length) Object.assign(out, flattenValidationErrors(error.children, path));
  }
  return out;
}

/** Ordered rules choosing the top-level message from the failing fields. */
export type ValidationMessageRule = (validation: ValidationMap) => string | undefined;

const messageRules: ValidationMessageRule[] = [];

/** Lets a domain library declare a contract message for a field (first matching rule wins). */
export function registerValidationMessageRule(rule: ValidationMessageRule): void {
  messageRules.push(rule);
}

export function validationMessage(validation: ValidationMap): string {
  for (const rule of messageRules) {
    const message = rule(validation);
    if (message) return message;
  }
  return 'Validation error';
}

/** Global pipe: whitelist, refuse unknown fields, transform to DTO classes, contract error body. */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const validation = flattenValidationErrors(errors);
      return new ValidationError(validation, validationMessage(validation));
    },
  });
}
