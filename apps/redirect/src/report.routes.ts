import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isEmail } from 'class-validator';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { clientIp, DomainError, ValidationError } from '@dl/platform/http';
import { Answer, buildAnswer, DomainTable } from '@dl/redirect';
import { ABUSE_CATEGORIES, AbuseCategory, AbuseReportsService } from '@dl/safety';

type ReportRequest = FastifyRequest<{ Params: { shortCode: string } }>;

const field = (body: unknown, name: string): string | undefined => {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** The form's fields as the api's `POST /abuse/reports` body, or the message shown above the form. */
export function readReportForm(body: unknown): { category: AbuseCategory; details?: string; reporterEmail?: string } | string {
  const category = field(body, 'category');
  const details = field(body, 'details');
  const reporterEmail = field(body, 'reporterEmail');
  if (!category || !(ABUSE_CATEGORIES as readonly string[]).includes(category)) return 'Choose what is wrong with this link.';
  if (details && details.length > 2000) return 'Details must be at most 2000 characters.';
  if (reporterEmail && (reporterEmail.length > 254 || !isEmail(reporterEmail))) return 'Enter a valid email address, or leave it empty.';
  return { category: category as AbuseCategory, details, reporterEmail };
}

/**
 * `GET|HEAD|POST /<code>/report` (decisions §22): the report form and its answer. The form posts
 * to its own address and the edge files the report through the abuse desk's service, the one the
 * api's `POST /abuse/reports` uses (same checks, same per-IP limit).
 */
export function registerReportRoutes(app: NestFastifyApplication, send: (reply: FastifyReply, answer: Answer) => FastifyReply): void {
  const fastify = app.getHttpAdapter().getInstance();
  const reports = app.get(AbuseReportsService);
  const domains = app.get(DomainTable);
  const config = app.get<AppConfig>(APP_CONFIG);
  const notFound = buildAnswer({ kind: 'not-found' });

  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/:shortCode/report',
    exposeHeadRoute: false,
    handler: (request: ReportRequest, reply) => send(reply, buildAnswer({ kind: 'report', shortCode: request.params.shortCode, error: null })),
  });

  fastify.route({
    method: 'POST',
    url: '/:shortCode/report',
    handler: async (request: ReportRequest, reply) => {
      const { shortCode } = request.params;
      // The service's own hosts file the report under the canonical short URL, as the api's reports name it.
      const place = domains.place(request.headers);
      const form = readReportForm(request.body);
      if (place === null) return send(reply, notFound);
      const base = place === '' ? config.SHORT_LINK_BASE_URL : `https://${place.domain}`;
      if (typeof form === 'string') return send(reply, buildAnswer({ kind: 'report', shortCode, error: form }));
      const ip = clientIp(request.headers, request.raw.socket?.remoteAddress ?? request.ip, config.TRUSTED_CLIENT_IP_HEADER);
      try {
        await reports.file({ url: `${base}/${encodeURIComponent(shortCode)}`, ...form }, ip);
      } catch (err) {
        if (err instanceof ValidationError) return send(reply, notFound); // not a link of ours
        if (err instanceof DomainError && err.code === 'RATE_LIMITED') {
          return send(reply, buildAnswer({ kind: 'too-many-reports', retryAfter: err.options.retryAfter ?? 3600 }));
        }
        throw err;
      }
      return send(reply, buildAnswer({ kind: 'reported' }));
    },
  });
}
