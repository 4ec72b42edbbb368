import type { PipeTransform } from '@nestjs/common';
import { compileDto } from '@dl/platform/validation';
import { ValidationError } from './errors';
import { flattenValidationErrors, refuseDeepNesting, refuseReservedKeys, refuseUnstorableText, validationMessage } from './validation.pipe';

/** A body check with the global ValidationPipe's verdict: the DTO instance, or the contract's 400 thrown. */
export type BodyValidator<T> = (body: unknown) => T;

/**
 * The global ValidationPipe's answer on a JSON body, from the rules of `metatype` compiled once
 * (`compileDto`): the same hostile-input refusals first (nesting, unstorable text, reserved keys),
 * then the DTO's own rules, the same `validation` map and message on failure. For routes that
 * validate outside Nest's pipeline, or where the pipe's per-call cost shows.
 */
export function compileBodyValidator<T>(metatype: new () => T): BodyValidator<T> {
  const check = compileDto(metatype);
  const metadata = { type: 'body' as const, metatype };
  return (body) => {
    const value = refuseReservedKeys(refuseUnstorableText(refuseDeepNesting(body, metadata), metadata), metadata);
    const verdict = check(value, 'body');
    if (verdict.errors === null) return verdict.value;
    const validation = flattenValidationErrors(verdict.errors);
    throw new ValidationError(validation, validationMessage(validation));
  };
}

/**
 * A body pipe of `metatype`'s compiled rules, for a hot route: `@Body(new CompiledBodyPipe(Dto))`
 * on a parameter typed `Readonly<Dto>` (its design type is then `Object`, which the global pipe
 * leaves alone), so class-transformer and class-validator do not run per call. The route states
 * its body for OpenAPI (`Endpoint`'s `body`).
 */
export class CompiledBodyPipe<T> implements PipeTransform<unknown, T> {
  private readonly check: BodyValidator<T>;

  constructor(metatype: new () => T) {
    this.check = compileBodyValidator(metatype);
  }

  transform(value: unknown): T {
    return this.check(value);
  }
}
