import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Answer, associationFiles, buildAnswer, RedirectService } from '@dl/redirect';

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
  const files = associationFiles(app.get<AppConfig>(APP_CONFIG));
  const notFound = NOT_FOUND;

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/:shortCode',
    exposeHeadRoute: false,
    handler: (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => {
      const url = request.url;
      const q = url.indexOf('?');
      const answer = edge.resolve({
        shortCode: request.params.shortCode,
        method: request.method,
        headers: request.headers,
        socketAddress: request.socket.remoteAddress,
        query: q === -1 ? '' : url.slice(q + 1),
      });
      if (answer instanceof Promise) return answer.then((a) => send(reply, a));
      return send(reply, answer);
    },
  });

  // The password form (decisions §16): `application/x-www-form-urlencoded`, parsed by Nest's adapter.
  fastify.route({
    method: 'POST',
    url: '/:shortCode',
    handler: async (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => {
      const url = request.url;
      const q = url.indexOf('?');
      const body = request.body as Record<string, unknown> | undefined;
      const answer = await edge.unlock(
        {
          shortCode: request.params.shortCode,
          method: 'POST',
          headers: request.headers,
          socketAddress: request.socket.remoteAddress,
          query: q === -1 ? '' : url.slice(q + 1),
        },
        body && typeof body === 'object' ? body.password : undefined,
      );
      return send(reply, answer);
    },
  });

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/.well-known/apple-app-site-association',
    exposeHeadRoute: false,
    handler: (_request, reply) => send(reply, files.apple ? json(files.apple) : notFound),
  });
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/.well-known/assetlinks.json',
    exposeHeadRoute: false,
    handler: (_request, reply) => send(reply, files.android ? json(files.android) : notFound),
  });

  fastify.all('/*', (_request, reply) => send(reply, notFound));
}
