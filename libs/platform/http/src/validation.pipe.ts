import { ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { ValidationError, ValidationMap } from './errors';

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
  return new ValidationPipe({
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
