import type { IncomingHttpHeaders } from 'node:http';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Answer, DomainTable, PublicStatsService, publicStatsPage, RedirectRequest, RedirectService } from '@dl/redirect';

/** What both entries read of a request: the bare `node:http` one (fast path) and Fastify's (routes). */
export interface EdgeHttpRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** The one request adapter: an HTTP request for `/<code>[?query]` as the edge sees it. */
export function redirectRequest(req: EdgeHttpRequest, shortCode: string, method: string = req.method ?? 'GET'): RedirectRequest {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return { shortCode, method, headers: req.headers, socketAddress: req.socket.remoteAddress, query: q === -1 ? '' : url.slice(q + 1) };
}

/**
 * The handler of `/<code>` that both entries call (`redirect.fast-path.ts` for the usual visit,
 * `redirect.routes.ts` for everything else): each only reads the request and writes the answer.
 */
export class RedirectHandler {
  private readonly edge: RedirectService;
  private readonly stats: PublicStatsService;
  private readonly domains: DomainTable;
  private readonly base: string;

  constructor(app: NestFastifyApplication) {
    this.edge = app.get(RedirectService);
    this.stats = app.get(PublicStatsService);
    this.domains = app.get(DomainTable);
    this.base = app.get<AppConfig>(APP_CONFIG).SHORT_LINK_BASE_URL.replace(/\/+$/, '');
  }

  /** `GET|HEAD /<code>`: synchronous for a cached link; `/<code>+` is the link's public stats page. */
  visit(req: EdgeHttpRequest, code: string): Answer | Promise<Answer> {
    if (code.length > 1 && code.endsWith('+')) return this.statsPage(req, code.slice(0, -1));
    return this.edge.resolve(redirectRequest(req, code));
  }

  /** `POST /<code>`: the password form (decisions §16). */
  unlock(req: EdgeHttpRequest, code: string, password: unknown): Promise<Answer> {
    return this.edge.unlock(redirectRequest(req, code, 'POST'), password);
  }

  /**
   * `/<code>+`: the public stats page of a link with `publicStats` on (decisions §16). Anything
   * else (unknown, inactive or private link) answers exactly what a missing code answers on
   * that host, so the page reveals nothing about private links.
   */
  private async statsPage(req: EdgeHttpRequest, code: string): Promise<Answer> {
    const place = this.domains.place(req.headers);
    const found = place === null ? null : await this.stats.find(place === '' ? '' : place.domain, code);
    if (!found || place === null) {
      // The code with its `+` is no valid short code: the edge answers its own "missing".
      return this.edge.resolve({ ...redirectRequest(req, `${code}+`), query: '' });
    }
    const shortUrl = place === '' ? `${this.base}/${code}` : `https://${place.domain}/${code}`;
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60', 'x-robots-tag': 'noindex' },
      body: publicStatsPage(found, shortUrl),
    };
  }
}
