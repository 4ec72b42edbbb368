import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The api's security headers (decisions §22) through @fastify/helmet: every answer gets
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy`, `X-Frame-Options` and the rest of
 * helmet's defaults. JSON needs no Content-Security-Policy; `/docs` (Swagger UI: its own
 * scripts and styles, inline styles, data: images) gets its own. `/app` keeps the dashboard's
 * (dashboard-static.ts), which helmet leaves alone because it is set per answer there.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export async function registerSecurityHeaders(app: NestFastifyApplication): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    // The dashboard and docs load only same-origin resources; public JSON (public stats) is read cross-origin through CORS.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HTTPS is the proxy's business (Caddy); a plain-HTTP deployment must not pin it.
    strictTransportSecurity: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/') || request.url.startsWith('/docs?')) {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DOCS_CSP);
    }
    return payload;
  });
}
