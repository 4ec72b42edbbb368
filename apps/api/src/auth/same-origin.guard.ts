import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CrossSiteRequestError } from '@dl/auth';

/**
 * Cookie-authenticated /auth POSTs (refresh, logout, decisions §20) refuse another site's page:
 * an `Origin` whose host is not this request's `Host` (or `Origin: null`), or, without `Origin`,
 * `Sec-Fetch-Site: cross-site`. Requests that carry neither (curl, server-side clients) send no
 * ambient cookie from a browser and pass. The dashboard is served by this api, so its own
 * requests are same-origin.
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<FastifyRequest>();
    const origin = headers.origin;
    if (typeof origin === 'string') {
      if (!sameHost(origin, headers.host)) throw new CrossSiteRequestError();
      return true;
    }
    if (headers['sec-fetch-site'] === 'cross-site') throw new CrossSiteRequestError();
    return true;
  }
}

function sameHost(origin: string, host: string | undefined): boolean {
  if (!host || origin === 'null') return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
