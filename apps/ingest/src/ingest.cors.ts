import type { FastifyCorsOptions } from '@fastify/cors';

const PIXEL_PATH = '/api/pixel/';

/** The pixel runs on customers' sites: CORS is open there (no credentials); SDK routes need none. */
export function corsFor(url: string): FastifyCorsOptions {
  return url.startsWith(PIXEL_PATH)
    ? { origin: '*', methods: ['GET', 'POST'], allowedHeaders: ['Content-Type'], maxAge: 86400,
        exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'] }
    : { origin: false };
}

/**
 * What the CORS plugin adds to an answer on a path whose origin is `false`: only `Vary: Origin`
 * (the options are resolved per request, so every answer varies by Origin). Routes served in
 * front of the plugin (the SDK's) add these themselves, and must be such paths.
 */
export function closedCorsHeaders(path: string): Readonly<Record<string, string>> {
  if (corsFor(path).origin !== false) throw new Error(`${path}: a route in front of the CORS plugin cannot have CORS open`);
  return { vary: 'Origin' };
}
