import { registerDecorator, ValidationOptions } from 'class-validator';

export const MAX_URL_LENGTH = 2048;
export const URL_MESSAGE = 'Must be a valid URL';

/** An absolute http(s) URL with a host, at most 2,048 characters (decisions §6). */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return false;
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!url.hostname) return false;
  return /^https?:\/\//i.test(value);
}

/** class-validator decorator for every destination URL field (null/undefined are left to @IsOptional). */
export function IsHttpUrl(options: ValidationOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: URL_MESSAGE, ...options },
      validator: { validate: (value: unknown) => isHttpUrl(value) },
    });
}
