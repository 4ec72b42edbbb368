import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig, normalizeHost } from '@dl/platform/config';
import { registerReportRoutes } from './report.routes';
import { AssociationFiles, Answer, associationFiles, buildAnswer, DomainTable, RedirectService, TlsNameBudget } from '@dl/redirect';

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

const NOT_FOUND = buildAnswer({ kind: 'not-found' });

/** The 404 page (also for Fastify's routing errors, see app.ts). */
export function sendNotFoundPage(reply: FastifyReply): FastifyReply {
  return send(reply, NOT_FOUND);
}

/**
 * The edge's routes other than the visit (`GET|HEAD /<code>`, visit.route.ts), registered on
 * Fastify directly (Nest's per-request pipeline is not needed). `/health` and `/metrics` are
 * Nest's; anything else (other paths, other methods) gets the 404 page.
 */
export function registerRedirectRoutes(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const edge = app.get(RedirectService);
  const files = associationFiles(app.get<AppConfig>(APP_CONFIG));
  const domains = app.get(DomainTable);
  const tlsBudget = app.get(TlsNameBudget);

  /** The .well-known files of the request's host: the service's, a branded domain's (its organization's apps), or none. */
  const filesOf = (request: FastifyRequest): AssociationFiles | null => {
    const place = domains.place(request.headers);
    return place === null ? null : place === '' ? files : place.files;
  };
  const associationFile = (json: string | null | undefined) => (json ? buildAnswer({ kind: 'association-file', json }) : NOT_FOUND);

  // The password form (decisions §16): `application/x-www-form-urlencoded`, parsed by Nest's adapter.
  fastify.route({
    method: 'POST',
    url: '/:shortCode',
    handler: async (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => {
      const body = request.body as Record<string, unknown> | undefined;
      return send(reply, await edge.unlock(request, request.params.shortCode, body && typeof body === 'object' ? body.password : undefined));
    },
  });

  // FDL's previewLink (decisions §26): the link's destinations as a page, no click; off the visit path.
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/:shortCode/preview',
    exposeHeadRoute: false,
    handler: async (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => send(reply, await edge.preview(request, request.params.shortCode)),
  });

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/.well-known/apple-app-site-association',
    exposeHeadRoute: false,
    handler: (request, reply) => send(reply, associationFile(filesOf(request)?.apple)),
  });
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/.well-known/assetlinks.json',
    exposeHeadRoute: false,
    handler: (request, reply) => send(reply, associationFile(filesOf(request)?.android)),
  });

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/',
    exposeHeadRoute: false,
    handler: (request, reply) => {
      const answer = edge.root(request);
      return answer instanceof Promise ? answer.then((a) => send(reply, a)) : send(reply, answer);
    },
  });

  // Caddy's on-demand TLS `ask` (decisions §15, §22): 200 for a verified domain, or an invalid one
  // that links still use, within its organization's daily budget of new names; 404 for anything
  // else. Answers on any host (Caddy asks over its own connection).
  fastify.route({
    method: ['GET'],
    url: '/tls/ask',
    handler: async (request: FastifyRequest<{ Querystring: { domain?: unknown } }>, reply) => {
      const given = request.query.domain;
      const name = typeof given === 'string' && given.length <= 253 ? normalizeHost(given) : null;
      const d = name ? domains.domain(name) : undefined;
      const serving = d !== undefined && (d.status === 'verified' || d.inUse);
      const ok = serving && (await tlsBudget.allow(d.organizationId, d.domain));
      const text = ok ? 'ok' : serving ? 'new name budget of the organization spent for today' : 'unknown domain';
      return reply.code(ok ? 200 : 404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(text);
    },
  });

  registerReportRoutes(app, send);

  fastify.all('/*', (_request, reply) => send(reply, NOT_FOUND));
}
