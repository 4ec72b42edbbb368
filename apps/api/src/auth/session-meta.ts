import type { FastifyRequest } from 'fastify';
import { SessionMeta } from '@dl/auth';
import { AppConfig } from '@dl/platform/config';
import { clientIp } from '@dl/platform/http';

/** Where a sign-in comes from (shown in GET /auth/sessions): the user agent and the client IP. */
export function sessionMeta(request: FastifyRequest, config: AppConfig): SessionMeta {
  const ua = request.headers['user-agent'];
  return {
    userAgent: typeof ua === 'string' ? ua : null,
    ip: clientIp(request.headers, request.raw.socket?.remoteAddress ?? request.ip, config.TRUSTED_CLIENT_IP_HEADER),
  };
}
