import { ApiPropertyOptions } from '@nestjs/swagger';

/** A property decorator as class-validator, class-transformer and @nestjs/swagger make them. */
export type FieldDecorator = (target: object, key: string) => void;

/**
 * Applies property decorators to a class's prototype as `@a @b @c key` would (the last one
 * first): how the link DTOs get the rules and schemas of the fields they derive from the
 * declaration (@dl/link-fields) in the same order as written ones.
 */
export function decorate(target: object, key: string, decorators: FieldDecorator[]): void {
  for (const d of [...decorators].reverse()) d(target, key);
}

/** The options without their undefined entries (the schema shows only what is set). */
export function definedOnly(options: ApiPropertyOptions): ApiPropertyOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as ApiPropertyOptions;
}
