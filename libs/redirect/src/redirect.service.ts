import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { stripUnstorable } from '@dl/platform/http';
import { infraDependency, reportOutage } from '@dl/platform/observability';
import { ClickCapturedJob } from '@dl/platform/queue';
import { Answer, buildAnswer } from './answer';
import { ClickCaptureService } from './click-capture.service';
import { CountryLookup } from './country-lookup';
import { decide, Outcome, Visit } from './decision';
import { RedirectLinkCache } from './redirect-link.cache';
import { PixelFlagCache } from './pixel-flag.cache';
import { RedirectLinkSnapshot } from './redirect-link';
import { acceptedLanguages, clientIp, userAgentTraits } from './visitor';

/** Codes the service can have issued (random base62, custom codes, imported codes). */
const SHORT_CODE = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest header value copied into a click. */
const MAX_FACT_LENGTH = 2048;
const UTM_QUERY_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

/** One visit to `/{shortCode}` as the HTTP layer sees it. */
export interface RedirectRequest {
  shortCode: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  socketAddress: string | undefined;
  /** The query string of the short URL, without '?'. */
  query: string;
}

function header(headers: RedirectRequest['headers'], name: string): string | null {
  const v = headers[name];
  const value = Array.isArray(v) ? v[0] : v;
  // What a visitor sends is cleaned, never refused: NUL and lone surrogates cannot be stored (decisions §14).
  return value ? stripUnstorable(value.slice(0, MAX_FACT_LENGTH)) || null : null;
}

function utmOfQuery(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!query.includes('utm_')) return out;
  const params = new URLSearchParams(query);
  for (const key of UTM_QUERY_KEYS) {
    const value = params.get(key);
    const clean = value && stripUnstorable(value.slice(0, 512));
    if (clean) out[key] = clean;
  }
  return out;
}

/**
 * The short-link edge: lookup → decision (decisions §7) → click capture → answer.
 * Synchronous for a cached link (no promise, no I/O on the response path).
 */
@Injectable()
export class RedirectService {
  private readonly logger = new Logger('Redirect');
  private readonly countries: CountryLookup;

  constructor(
    private readonly links: RedirectLinkCache,
    private readonly pixels: PixelFlagCache,
    private readonly clicks: ClickCaptureService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.countries = new CountryLookup(config.GEOIP_DATABASE_PATH);
  }

  resolve(req: RedirectRequest): Answer | Promise<Answer> {
    if (!SHORT_CODE.test(req.shortCode)) return buildAnswer({ kind: 'not-found' });
    try {
      const found = this.links.find(req.shortCode);
      if (!(found instanceof Promise)) return this.answerFor(found, req);
      return found.then(
        (link) => this.answerFor(link, req),
        (err: unknown) => this.unavailable(err),
      );
    } catch (err) {
      return this.unavailable(err);
    }
  }

  private answerFor(link: RedirectLinkSnapshot | null, req: RedirectRequest): Answer | Promise<Answer> {
    const now = Date.now();
    const live = link !== null && link.isActive && (link.expiresAt === null || link.expiresAt > now);
    if (!live) return buildAnswer(decide(link, this.visit(req, now, null)));
    // A HEAD fetches no page (link checkers): answered like GET, but no click is recorded.
    const clickId = req.method === 'GET' ? randomUUID() : null;
    const pixel = clickId ? this.pixels.hasPixelSite(link.organizationId) : false;
    if (pixel instanceof Promise) return pixel.then((flag) => this.visitLink(link, req, now, clickId, flag));
    return this.visitLink(link, req, now, clickId, pixel);
  }

  private visitLink(
    link: RedirectLinkSnapshot,
    req: RedirectRequest,
    now: number,
    clickId: string | null,
    pixel: boolean,
  ): Answer {
    const visit = this.visit(req, now, pixel ? clickId : null);
    const outcome: Outcome = decide(link, visit);
    // The answer first: a visit that could not be answered (it throws, or is a 5xx) records no click.
    const answer = buildAnswer(outcome);
    if (clickId && answer.status < 500) this.clicks.capture(this.click(clickId, link, req, now));
    return answer;
  }

  private visit(req: RedirectRequest, now: number, pixelClickId: string | null): Visit {
    const traits = userAgentTraits(header(req.headers, 'user-agent'));
    return {
      now,
      platform: traits.platform,
      bot: traits.bot,
      country: () => this.countries.country(this.ip(req)),
      languages: () => acceptedLanguages(header(req.headers, 'accept-language')),
      query: req.query,
      pixelClickId,
    };
  }

  private click(id: string, link: RedirectLinkSnapshot, req: RedirectRequest, now: number): ClickCapturedJob {
    return {
      id,
      linkId: link.id,
      organizationId: link.organizationId,
      clickedAt: new Date(now).toISOString(),
      ip: this.ip(req),
      userAgent: header(req.headers, 'user-agent'),
      referrer: header(req.headers, 'referer'),
      acceptLanguage: header(req.headers, 'accept-language'),
      query: utmOfQuery(req.query),
    };
  }

  private ip(req: RedirectRequest): string | null {
    return clientIp(req.headers, req.socketAddress, this.config.TRUSTED_CLIENT_IP_HEADER);
  }

  /** Postgres unreachable and the link in no cache: an honest 503, never a 500. */
  private unavailable(err: unknown): Answer {
    const dependency = infraDependency(err, 'postgres');
    if (dependency) reportOutage(dependency, err, 'link lookup');
    else this.logger.error({ err }, 'link lookup failed');
    return buildAnswer({ kind: 'unavailable' });
  }
}
