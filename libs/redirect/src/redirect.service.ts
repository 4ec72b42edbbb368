import { Inject, Injectable, Logger } from '@nestjs/common';
import { FdlParams, fdlLinkValues, fdlParamsOf, isHttpUrl } from '@dl/link-fields';
import { newClickId } from '@dl/platform/click-codec';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { infraDependency, reportOutage } from '@dl/platform/observability';
import { Answer, buildAnswer } from './answer';
import { ClickCap } from './click-cap';
import { ClickCaptureService } from './click-capture.service';
import { CountryLookup } from './country-lookup';
import { decide, isLive, Outcome } from './decision';
import { DomainTable, EdgeDomain } from './domain-table';
import { LinkPasswords } from './link-password';
import { PixelFlagCache } from './pixel-flag.cache';
import { PublicStatsService } from './public-stats';
import { RedirectLinkSnapshot } from './redirect-link';
import { RedirectLinkCache } from './redirect-link.cache';
import { RedirectStore } from './redirect-store';
import { EdgeRequest, Visit, VisitContext } from './visit';

const NOT_FOUND = buildAnswer({ kind: 'not-found' });

/** The code of a branded domain's Firebase Dynamic Links link (decisions §26). */
export const FDL_CODE = 'fdl';
/** FDL parameters that must be http(s) URLs when given (`link` must be given). */
const FDL_URL_PARAMS: ReadonlyArray<keyof FdlParams> = ['afl', 'ifl', 'ipfl', 'ofl', 'si'];

/** A long link the edge follows: `link` an http(s) URL, and so is every fallback given; else the 400 page. */
export function isServableFdl(params: FdlParams): boolean {
  return isHttpUrl(params.link) && !FDL_URL_PARAMS.some((k) => params[k] !== undefined && params[k] !== '' && !isHttpUrl(params[k]));
}

const SHORT_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** A code the service can have issued (random base62, custom codes, imported codes): only these are looked up. */
export function isShortCode(code: string): boolean {
  return SHORT_CODE.test(code);
}

/** A step of a live link's visit before the decision: it reads the visit and records what it learns, synchronously when it can. */
type VisitStep = (visit: Visit) => void | Promise<void>;

/** Outcomes that send the visitor on, so the visit records its click. */
const RECORDED = new Set<Outcome['kind']>(['redirect', 'cloak', 'preview']);

/**
 * The short-link edge: host and code → link (cache-aside) → the live link's steps → decision
 * (decisions §16) → answer → click capture. A `Visit` carries the request through every step.
 * Synchronous for a cached link (no promise, no I/O on the response path).
 */
@Injectable()
export class RedirectService {
  private readonly logger = new Logger('Redirect');
  private readonly context: VisitContext;
  private readonly base: string;
  /** In order: the click cap (when set), then the pixel flag (only for a visit that records a click under its cap). */
  private readonly liveSteps: readonly VisitStep[] = [(visit) => this.clickCap(visit), (visit) => this.pixelFlag(visit)];

  constructor(
    private readonly links: RedirectLinkCache,
    private readonly pixels: PixelFlagCache,
    private readonly clicks: ClickCaptureService,
    private readonly caps: ClickCap,
    private readonly passwords: LinkPasswords,
    private readonly domains: DomainTable,
    private readonly stats: PublicStatsService,
    private readonly store: RedirectStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.context = { countries: new CountryLookup(config.GEOIP_DATABASE_PATH), trustedIpHeader: config.TRUSTED_CLIENT_IP_HEADER };
    this.base = config.SHORT_LINK_BASE_URL.replace(/\/+$/, '');
  }

  /**
   * `GET|HEAD /<code>` by host (decisions §15): a service host resolves the links on no branded
   * domain, a branded host that domain's code (an unknown one → its `notFoundUrl` or the 404
   * page), an unknown host the 404 page. `/<code>+` is the link's public stats page.
   */
  visit(req: EdgeRequest, code: string): Answer | Promise<Answer> {
    const visit = this.start(req, code);
    if (code.length > 1 && code.endsWith('+')) return this.statsPage(visit);
    if (visit.place === null || !isShortCode(code)) return this.answer(visit);
    try {
      const found = this.links.find(this.linkKey(visit));
      if (!(found instanceof Promise)) return this.withLink(visit, found);
      return found.then(
        (link) => this.withLink(visit, link),
        (err: unknown) => this.unavailable(err),
      );
    } catch (err) {
      return this.unavailable(err);
    }
  }

  /**
   * `POST /<code>` with the password form: right → the visit as a GET (click recorded) plus the
   * unlock cookie; wrong → 401 form with "Wrong password"; past the try limit → 429.
   */
  async unlock(req: EdgeRequest, code: string, password: unknown): Promise<Answer> {
    const visit = this.start(req, code);
    if (visit.place === null || !isShortCode(code)) return NOT_FOUND;
    let link: RedirectLinkSnapshot | null;
    try {
      link = await this.links.find(this.linkKey(visit));
    } catch (err) {
      return this.unavailable(err);
    }
    // Only password links take a POST: anything else answers like any other method (404 page).
    if (link && !link.passwordHash) return NOT_FOUND;
    if (!isLive(link, visit.now) || !link.passwordHash) return this.answer(Object.assign(visit, { link }));
    // Counted before the hash (decisions §22), then hashed off the event loop in a bounded queue.
    if (!(await this.passwords.reserve(link, visit.ip()))) return buildAnswer({ kind: 'too-many-tries' });
    const given = typeof password === 'string' && password.length <= 128 ? password : null;
    const right = given ? await this.passwords.check(link, given) : false;
    if (right === null) return buildAnswer({ kind: 'too-many-tries' });
    if (!right) return buildAnswer({ kind: 'password', link, wrong: true });
    visit.unlocked = true;
    visit.setCookie = this.passwords.unlockCookie(link, visit.now);
    return this.withLink(visit, link);
  }

  /**
   * `GET|HEAD /<code>/preview` (FDL's `previewLink`, decisions §26): a live link's destinations as
   * a page, no click. A link that is dead, locked by a password or blocked answers what a visit
   * answers before any click (404 or 410, the password form, the disabled page).
   */
  async preview(req: EdgeRequest, code: string): Promise<Answer> {
    const visit = this.start(req, code);
    if (visit.place === null || !isShortCode(code)) return this.answer(visit);
    let link: RedirectLinkSnapshot | null;
    try {
      link = await this.links.find(this.linkKey(visit));
    } catch (err) {
      return this.unavailable(err);
    }
    visit.link = link;
    if (!isLive(link, visit.now) || link.passwordHash || link.safetyStatus === 'blocked') return this.answer(visit);
    const shortUrl = visit.place === '' ? `${this.base}/${code}` : `https://${visit.place.domain}/${code}`;
    return buildAnswer({ kind: 'link-preview', link, shortUrl });
  }

  /**
   * `GET /` (decisions §15, §26): on a branded host, a Firebase Dynamic Links long link
   * (`?link=…`) answers like a link; else the host's `rootRedirectUrl`, else the 404 page.
   */
  root(req: EdgeRequest): Answer | Promise<Answer> {
    const place = this.domains.place(req.headers);
    if (place && req.url && req.url.includes('?')) {
      const query = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1));
      if (query.has('link')) return this.fdlVisit(req, place, query);
    }
    return place && place.rootRedirectUrl ? buildAnswer({ kind: 'redirect', location: place.rootRedirectUrl }) : NOT_FOUND;
  }

  /**
   * A Firebase Dynamic Links long link: the domain's `fdl` link (made on the first such visit)
   * with the destinations, store pages and social preview the parameters give, through the same
   * steps, decision and click capture as any visit. `link` (and any fallback) not http(s) → 400.
   * Only `utm_*` of the query go on as the visit's own query (on the click and the destination).
   */
  private async fdlVisit(req: EdgeRequest, place: EdgeDomain, query: URLSearchParams): Promise<Answer> {
    const params = fdlParamsOf(query);
    if (!isServableFdl(params)) return buildAnswer({ kind: 'bad-link' });
    const utm = new URLSearchParams([...query].filter(([k]) => k.startsWith('utm_')));
    const visit = this.start({ method: req.method, url: utm.size ? `/${FDL_CODE}?${utm}` : `/${FDL_CODE}`, headers: req.headers, socket: req.socket }, FDL_CODE);
    const key = `${place.domain}/${FDL_CODE}`;
    let link: RedirectLinkSnapshot | null;
    try {
      link = await this.links.find(key);
      if (!link) {
        await this.store.ensureFdlLink(place.id);
        this.links.invalidate(key);
        link = await this.links.find(key);
      }
    } catch (err) {
      return this.unavailable(err);
    }
    if (!link) return NOT_FOUND;
    const v = fdlLinkValues(params);
    return this.withLink(visit, {
      ...link,
      originalUrl: v.originalUrl!,
      iosUrl: v.iosUrl ?? null,
      androidUrl: v.androidUrl ?? null,
      webFallbackUrl: v.webFallbackUrl ?? null,
      ogTitle: v.ogTitle ?? null,
      ogDescription: v.ogDescription ?? null,
      ogImageUrl: v.ogImageUrl ?? null,
      utmParameters: null,
      variants: null,
      redirectRules: null,
      targetingRules: null,
    });
  }

  private start(req: EdgeRequest, code: string): Visit {
    const visit = new Visit(req, code, this.context);
    visit.place = this.domains.place(visit.headers);
    return visit;
  }

  private linkKey(visit: Visit): string {
    return visit.place ? `${visit.place.domain}/${visit.code}` : visit.code;
  }

  /** The link found (or none): a live one goes through the steps, anything else is answered at once. */
  private withLink(visit: Visit, link: RedirectLinkSnapshot | null): Answer | Promise<Answer> {
    visit.link = link;
    if (!isLive(link, visit.now)) return this.answer(visit);
    if (!visit.unlocked) visit.unlocked = !link.passwordHash || this.passwords.unlocked(link, visit.header('cookie'), visit.now);
    // A HEAD fetches no page (link checkers) and a locked link shows its form: no click recorded.
    if (visit.method !== 'HEAD' && visit.unlocked) visit.clickId = newClickId(visit.now);
    return this.steps(visit, 0);
  }

  private steps(visit: Visit, from: number): Answer | Promise<Answer> {
    for (let i = from; i < this.liveSteps.length; i++) {
      const pending = this.liveSteps[i](visit);
      if (pending) return pending.then(() => this.steps(visit, i + 1));
    }
    return this.finish(visit);
  }

  private clickCap(visit: Visit): void | Promise<void> {
    const link = visit.link!;
    if (link.maxClicks === null) return;
    if (this.caps.knownReached(link)) {
      visit.capReached = true;
      return;
    }
    return this.caps.reached(link, visit.clickId !== null && !visit.bot).then((reached) => {
      visit.capReached = reached;
    });
  }

  private pixelFlag(visit: Visit): void | Promise<void> {
    if (!visit.clickId || visit.capReached) return;
    const flag = this.pixels.appendsClickId(visit.link!.organizationId);
    if (!(flag instanceof Promise)) {
      visit.pixel = flag;
      return;
    }
    return flag.then((value) => {
      visit.pixel = value;
    });
  }

  /** The decision, its answer, then the click: a visit that could not be answered (it throws, or is a 5xx) records none. */
  private finish(visit: Visit): Answer {
    const outcome = decide(visit);
    const answer = buildAnswer(outcome, visit.setCookie);
    if (visit.clickId && RECORDED.has(outcome.kind) && answer.status < 500) {
      const choice = outcome as { variant?: number; rule?: number };
      this.clicks.capture(visit.click(choice.variant ?? null, choice.rule ?? null));
    }
    return answer;
  }

  /** A visit answered without the live steps (no link, a dead one, an unknown host or code). */
  private answer(visit: Visit): Answer {
    return buildAnswer(decide(visit), visit.setCookie);
  }

  /**
   * `/<code>+`: the public stats page of a link with `publicStats` on (decisions §16). Anything
   * else (unknown, inactive or private link) answers exactly what a missing code answers on that
   * host, so the page reveals nothing about private links.
   */
  private async statsPage(visit: Visit): Promise<Answer> {
    const place = visit.place;
    const code = visit.code.slice(0, -1);
    let found;
    try {
      found = place === null ? null : await this.stats.find(place === '' ? '' : place.domain, code);
    } catch (err) {
      return this.unavailable(err);
    }
    if (!found || place === null) return this.answer(visit);
    const shortUrl = place === '' ? `${this.base}/${code}` : `https://${place.domain}/${code}`;
    return buildAnswer({ kind: 'stats', stats: found, shortUrl });
  }

  /** Postgres unreachable and the link in no cache: an honest 503, never a 500. */
  private unavailable(err: unknown): Answer {
    const dependency = infraDependency(err, 'postgres');
    if (dependency) reportOutage(dependency, err, 'link lookup');
    else this.logger.error({ err }, 'link lookup failed');
    return buildAnswer({ kind: 'unavailable' });
  }
}
