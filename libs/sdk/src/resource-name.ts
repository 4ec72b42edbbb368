import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { stacked } from '@dl/platform/validation';

export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The `name` of an app or a pixel site: 1-100 characters once trimmed. */
export const IsResourceName = (example: string): PropertyDecorator =>
  stacked(
    ApiProperty({ minLength: 1, maxLength: 100, example }),
    Transform(trim),
    IsString({ message: 'Must be a string' }),
    Length(1, 100, { message: 'Must be 1-100 characters' }),
  );
