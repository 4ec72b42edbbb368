import { registerDecorator, ValidationOptions } from 'class-validator';

export const MAX_URL_LENGTH = 2048;
export const URL_MESSAGE = 'Must be a valid URL';

/** `raw` parsed as an absolute URL (WHATWG), or null when it is not one. */
export function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

export const isHttpScheme = (url: URL): boolean => url.protocol === 'http:' || url.protocol === 'https:';

/** An absolute http(s) URL with a host, at most 2,048 characters (decisions §6). */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return false;
  if (/\s/.test(value)) return false;
  const url = parseUrl(value);
  if (!url || !isHttpScheme(url) || !url.hostname) return false;
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
