import { existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/** Where `npm run build:dashboard` writes the dashboard (vite.config.mts). */
export const DEFAULT_DASHBOARD_DIR = resolve(__dirname, '../../../../dist/dashboard');

export const DASHBOARD_PREFIX = '/app';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
/**
 * For the HTML shell only: scripts and API calls from this origin alone, no framing.
 * Images may come from anywhere over https (the OG preview shows the customer's image).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply
    .header('Cache-Control', NO_CACHE)
    .header('Content-Security-Policy', CSP)
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .sendFile('index.html', { cacheControl: false });
}

/**
 * Serves the built dashboard at /app (decisions §17): files of the build as they are,
 * hashed files under /app/assets cached for a year, and every other path under /app the
 * SPA's index.html, never cached, so a new build is picked up on the next load. A
 * missing asset is a 404, not the HTML shell. Without a build, /app says how to make one.
 */
export async function serveDashboard(app: NestFastifyApplication, dir: string = DEFAULT_DASHBOARD_DIR): Promise<void> {
  const root = resolve(dir);
  const fastify = app.getHttpAdapter().getInstance();
  const built = existsSync(join(root, 'index.html'));
  if (built) await app.register(fastifyStatic, { root, serve: false });

  const handler = async (request: { params: unknown }, reply: FastifyReply) => {
    if (!built) {
      return reply
        .code(503)
        .header('Cache-Control', NO_CACHE)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. Run `npm run build:dashboard` (npm start and npm run build do it).\n');
    }
    const wanted = ((request.params as Record<string, string | undefined>)['*'] ?? '').replace(/^\/+/, '');
    const file = normalize(join(root, wanted));
    const inside = file.startsWith(root + sep);
    const isFile = inside && wanted !== '' && wanted !== 'index.html' && existsSync(file) && statSync(file).isFile();
    if (isFile) {
      const relative = file.slice(root.length + 1);
      const cache = relative.startsWith(`assets${sep}`) ? IMMUTABLE : NO_CACHE;
      return reply.header('Cache-Control', cache).header('X-Content-Type-Options', 'nosniff').sendFile(relative, { cacheControl: false });
    }
    if (wanted.startsWith('assets/')) {
      return reply.code(404).header('Cache-Control', NO_CACHE).type('text/plain; charset=utf-8').send('Not found\n');
    }
    return sendIndex(reply);
  };
  fastify.get(DASHBOARD_PREFIX, handler);
  fastify.get(`${DASHBOARD_PREFIX}/*`, handler);
}
