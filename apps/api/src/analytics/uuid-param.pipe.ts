import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from '@dl/platform/http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID: 400 `Validation error` naming the parameter. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw new ValidationError({ [this.name]: 'Must be a valid UUID' });
    return value.toLowerCase();
  }
}
