import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from '@dl/platform/http';
import { isUuid } from '@dl/platform/validation';

/** A path id that is not a UUID → 400 `Validation error` naming the parameter (never a 500). */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly name = 'id') {}

  transform(value: string): string {
    if (!isUuid(value)) throw new ValidationError({ [this.name]: 'Must be a valid UUID' });
    return value;
  }
}
