import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { isUuid } from '@dl/platform/validation';
import { ValidationError } from './errors';

/**
 * A path id that must be a UUID: anything else is 400 `Validation error` naming the parameter
 * (`validation.<name> = Must be a valid UUID`, never a 500 from the database). Any case is
 * accepted and the id goes on in lower case, the form Postgres answers, so caches and
 * comparisons keyed by id see one spelling.
 */
@Injectable()
export class UuidParamPipe implements PipeTransform<unknown, string> {
  constructor(private readonly name = 'id') {}

  transform(value: unknown): string {
    if (!isUuid(value)) throw new ValidationError({ [this.name]: 'Must be a valid UUID' });
    return value.toLowerCase();
  }
}

/** `@UuidParam('linkId') linkId: string`: the path parameter, checked and lower-cased by UuidParamPipe. */
export const UuidParam = (name = 'id'): ParameterDecorator => Param(name, new UuidParamPipe(name));
