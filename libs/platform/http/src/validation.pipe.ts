import { ArgumentMetadata, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
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

/**
 * Text Postgres cannot store (NUL, lone surrogates) anywhere in a body or query, keys
 * included: 400 `Validation error` naming the field, before any other rule runs. A
 * visitor DTO (StripsUnstorableText) gets a cleaned copy instead.
 */
export function refuseUnstorableText(value: unknown, metadata: Pick<ArgumentMetadata, 'type' | 'metatype'>): unknown {
  if (metadata.type !== 'body' && metadata.type !== 'query') return value;
  const path = findUnstorableText(value);
  if (path === null) return value;
  if (metadata.metatype && (metadata.metatype as unknown as Record<symbol, boolean>)[VISITOR_TEXT]) return toStorableJson(value);
  throw new ValidationError({ [path]: UNSTORABLE_TEXT_MESSAGE });
}

class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return super.transform(refuseUnstorableText(value, metadata), metadata);
  }
}

/**
 * Per-field message overrides: a constraint name (e.g. `isUrl`) carrying one of these
 * contexts renders its message as given. DTOs set messages with `{ message: '...' }`.
 */
function firstMessage(error: ClassValidatorError): string {
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) return 'Unknown field';
  const values = Object.values(constraints);
  return values[0] ?? 'Invalid value';
}

/** Flattens nested class-validator errors into `{ "a.b[0]": message }`. */
export function flattenValidationErrors(errors: ClassValidatorError[], parent = ''): ValidationMap {
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
