import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig, normalizeHost } from '@dl/platform/config';
import { AssociationFiles, Answer, associationFiles, buildAnswer, DomainTable, RedirectService } from '@dl/redirect';
import { RedirectHandler } from './redirect.handler';

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

const NOT_FOUND = buildAnswer({ kind: 'not-found' });

/** The 404 page (also for Fastify's routing errors, see app.ts). */
export function sendNotFoundPage(reply: FastifyReply): FastifyReply {
  return send(reply, NOT_FOUND);
}

function json(body: string): Answer {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' },
    body,
  };
}

/**
 * The edge's routes, registered on Fastify directly (the hot path skips Nest's
 * per-request pipeline). `/health` and `/metrics` (static routes) win over `/:shortCode`;
 * anything else — other paths, other methods, over-long codes — gets the 404 page.
 */
export function registerRedirectRoutes(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const edge = app.get(RedirectService);
  const handler = new RedirectHandler(app);
  const files = associationFiles(app.get<AppConfig>(APP_CONFIG));
  const domains = app.get(DomainTable);
  const notFound = NOT_FOUND;

  /** The .well-known files of the request's host: the service's, a branded domain's (its organization's apps), or none. */
  const filesOf = (request: FastifyRequest): AssociationFiles | null => {
    const place = domains.place(request.headers);
    return place === null ? null : place === '' ? files : place.files;
  };

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/:shortCode',
    exposeHeadRoute: false,
    handler: (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => {
      const answer = handler.visit(request, request.params.shortCode);
      if (answer instanceof Promise) return answer.then((a) => send(reply, a));
      return send(reply, answer);
    },
  });

  // The password form (decisions §16): `application/x-www-form-urlencoded`, parsed by Nest's adapter.
  fastify.route({
    method: 'POST',
    url: '/:shortCode',
    handler: async (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => {
      const body = request.body as Record<string, unknown> | undefined;
      return send(reply, await handler.unlock(request, request.params.shortCode, body && typeof body === 'object' ? body.password : undefined));
    },
  });

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/.well-known/apple-app-site-association',
    exposeHeadRoute: false,
    handler: (request, reply) => {
      const apple = filesOf(request)?.apple;
      return send(reply, apple ? json(apple) : notFound);
    },
  });
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/.well-known/assetlinks.json',
    exposeHeadRoute: false,
    handler: (request, reply) => {
      const android = filesOf(request)?.android;
      return send(reply, android ? json(android) : notFound);
    },
  });

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/',
    exposeHeadRoute: false,
    handler: (request, reply) => send(reply, edge.root(request)),
  });

  // Caddy's on-demand TLS `ask` (decisions §15): 200 for a verified domain, or an invalid one that
  // links still use; 404 for anything else. Answers on any host (Caddy asks over its own connection).
  fastify.route({
    method: ['GET'],
    url: '/tls/ask',
    handler: (request: FastifyRequest<{ Querystring: { domain?: unknown } }>, reply) => {
      const given = request.query.domain;
      const name = typeof given === 'string' && given.length <= 253 ? normalizeHost(given) : null;
      const d = name ? domains.domain(name) : undefined;
      const ok = d !== undefined && (d.status === 'verified' || d.inUse);
      return reply.code(ok ? 200 : 404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(ok ? 'ok' : 'unknown domain');
    },
  });

  fastify.all('/*', (_request, reply) => send(reply, notFound));
}
