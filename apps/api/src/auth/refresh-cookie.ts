import type { FastifyReply, FastifyRequest } from 'fastify';
import { IssuedSession, SessionResponseDto, toSessionResponse } from '@dl/auth';
import { AppConfig } from '@dl/platform/config';

/** The dashboard's refresh credential: HttpOnly (no script reads it), sent only to /auth, never cross-site. */
export const REFRESH_COOKIE = 'dl_refresh';

function attributes(config: AppConfig, maxAge: number): string {
  const secure = config.NODE_ENV === 'production' ? '; Secure' : '';
  return `Path=/auth; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

/** The cookie of a session just started or refreshed: its next refresh credential, for as long as the session may live. */
export function setRefreshCookie(reply: FastifyReply, config: AppConfig, session: IssuedSession): void {
  reply.header('Set-Cookie', `${REFRESH_COOKIE}=${session.refreshToken}; ${attributes(config, session.refreshMaxAge)}`);
  reply.header('Cache-Control', 'no-store');
}

/** The answer of a route that signs in: the session's refresh cookie on the reply, its access token in the body. */
export function answerSession(reply: FastifyReply, config: AppConfig, session: IssuedSession): SessionResponseDto {
  setRefreshCookie(reply, config, session);
  return toSessionResponse(session);
}

export function clearRefreshCookie(reply: FastifyReply, config: AppConfig): void {
  reply.header('Set-Cookie', `${REFRESH_COOKIE}=; ${attributes(config, 0)}`);
}

/** The refresh cookie's value from the Cookie header (no cookie library: one name, no decoding needed). */
export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === REFRESH_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
