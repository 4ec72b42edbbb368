import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClickCapturedJob, clickTimeIso, newClickId } from '@dl/platform/click-codec';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { clientIp, stripUnstorable, verifySecret } from '@dl/platform/http';
import { infraDependency, reportOutage } from '@dl/platform/observability';
import { UTM_QUERY_KEYS } from '@dl/platform/validation';
import { DomainTable, EdgeDomain } from './domain-table';
import { Answer, buildAnswer } from './answer';
import { ClickCaptureService } from './click-capture.service';
import { CountryLookup } from './country-lookup';
import { ClickCap } from './click-cap';
import { decide, isLive, Outcome, Visit } from './decision';
import { LinkPasswords } from './link-password';
import { RedirectLinkCache } from './redirect-link.cache';
import { PixelFlagCache } from './pixel-flag.cache';
import { RedirectLinkSnapshot } from './redirect-link';
import { acceptedLanguages, BrowserName, OsName, userAgentBrowser, userAgentOs, userAgentTraits } from './visitor';

const NOT_FOUND = buildAnswer({ kind: 'not-found' });

/** Codes the service can have issued (random base62, custom codes, imported codes). */
const SHORT_CODE = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest header value copied into a click. */
const MAX_FACT_LENGTH = 2048;

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

/** The `query` of a click without utm_* parameters (most): one shared object, never written to. */
const NO_UTM: Record<string, string> = Object.freeze({});

function utmOfQuery(query: string): Record<string, string> {
  if (!query.includes('utm_')) return NO_UTM;
  const out: Record<string, string> = {};
  const params = new URLSearchParams(query);
  for (const key of UTM_QUERY_KEYS) {
    const value = params.get(key);
    const clean = value && stripUnstorable(value.slice(0, 512));
    if (clean) out[key] = clean;
  }
  return out;
}

/**
 * The facts of one visit the decision may ask for (decisions §16), each computed only when
 * asked: methods on one object per visit instead of a closure per fact. The client IP is
 * resolved once and shared with the click record. Exported for bench/redirect-parts.ts.
 */
export class VisitFacts implements Visit {
  readonly platform: Visit['platform'];
  readonly bot: boolean;
  readonly query: string;
  unlocked = false;
  capReached = false;
  private clientIp: string | null | undefined = undefined;
  // Each fact is computed the first time a rule asks (several rules may ask the same).
  private countryCode: string | null | undefined = undefined;
  private languageList: readonly string[] | undefined = undefined;
  private osName: OsName | null | undefined = undefined;
  private browserName: BrowserName | null | undefined = undefined;
  private params: URLSearchParams | undefined = undefined;

  constructor(
    readonly now: number,
    private readonly req: RedirectRequest,
    readonly ua: string | null,
    readonly pixelClickId: string | null,
    private readonly countries: CountryLookup,
    private readonly trustedIpHeader: string | undefined,
  ) {
    const traits = userAgentTraits(ua);
    this.platform = traits.platform;
    this.bot = traits.bot;
    this.query = req.query;
  }

  ip(): string | null {
    if (this.clientIp === undefined) this.clientIp = clientIp(this.req.headers, this.req.socketAddress, this.trustedIpHeader);
    return this.clientIp;
  }

  country(): string | null {
    if (this.countryCode === undefined) this.countryCode = this.countries.country(this.ip());
    return this.countryCode;
  }

  languages(): readonly string[] {
    return (this.languageList ??= acceptedLanguages(header(this.req.headers, 'accept-language')));
  }

  os(): OsName | null {
    if (this.osName === undefined) this.osName = userAgentOs(this.ua);
    return this.osName;
  }

  browser(): BrowserName | null {
    if (this.browserName === undefined) this.browserName = userAgentBrowser(this.ua);
    return this.browserName;
  }

  queryParams(): URLSearchParams {
    return (this.params ??= new URLSearchParams(this.query));
  }

  visitorKey(): string {
    return `${this.ip() ?? ''}\n${this.ua ?? ''}`;
  }
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
    private readonly caps: ClickCap,
    private readonly passwords: LinkPasswords,
    private readonly domains: DomainTable,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.countries = new CountryLookup(config.GEOIP_DATABASE_PATH);
  }

  /**
   * `GET /<code>` by host (decisions §15): a service host resolves the links on no branded
   * domain (as before domains), a branded host that domain's code (an unknown one → its
   * `notFoundUrl` or the 404 page), an unknown host the 404 page.
   */
  resolve(req: RedirectRequest): Answer | Promise<Answer> {
    const place = this.domains.place(req.headers);
    if (place === null) return NOT_FOUND;
    if (!SHORT_CODE.test(req.shortCode)) return this.notFound(place);
    try {
      const found = this.links.find(place === '' ? req.shortCode : `${place.domain}/${req.shortCode}`);
      if (!(found instanceof Promise)) return this.answerFor(found, req, place);
      return found.then(
        (link) => this.answerFor(link, req, place),
        (err: unknown) => this.unavailable(err),
      );
    } catch (err) {
      return this.unavailable(err);
    }
  }

  /**
   * `POST /{shortCode}` with the password form: right → the visit as a GET (click recorded)
   * plus the unlock cookie; wrong → 401 form with "Wrong password"; past the try limit → 429.
   */
  async unlock(req: RedirectRequest, password: unknown): Promise<Answer> {
    const place = this.domains.place(req.headers);
    if (place === null) return NOT_FOUND;
    if (!SHORT_CODE.test(req.shortCode)) return NOT_FOUND;
    let link: RedirectLinkSnapshot | null;
    try {
      link = await this.links.find(place === '' ? req.shortCode : `${place.domain}/${req.shortCode}`);
    } catch (err) {
      return this.unavailable(err);
    }
    const get = { ...req, method: 'GET' };
    const now = Date.now();
    // Only password links take a POST: anything else answers like any other method (404 page).
    if (link && !link.passwordHash) return NOT_FOUND;
    if (!isLive(link, now) || !link.passwordHash) return this.answerFor(link, get, place);
    const ip = this.ip(req);
    if (await this.passwords.blocked(link, ip)) return buildAnswer({ kind: 'too-many-tries' });
    const given = typeof password === 'string' && password.length <= 128 ? password : null;
    if (!given || !(await verifySecret(given, link.passwordHash))) {
      if (await this.passwords.wrongTry(link, ip)) return buildAnswer({ kind: 'too-many-tries' });
      return buildAnswer({ kind: 'password', link, wrong: true });
    }
    const answer = await this.visitLive(link, get, now, true);
    return { ...answer, headers: { ...answer.headers, 'set-cookie': this.passwords.unlockCookie(link, now) } };
  }

  /** `GET /` (decisions §15): a branded host's `rootRedirectUrl`, else the 404 page. */
  root(headers: RedirectRequest['headers']): Answer {
    const place = this.domains.place(headers);
    return place && place.rootRedirectUrl ? buildAnswer({ kind: 'redirect', location: place.rootRedirectUrl }) : NOT_FOUND;
  }

  private notFound(place: '' | EdgeDomain): Answer {
    return place !== '' && place.notFoundUrl ? buildAnswer({ kind: 'redirect', location: place.notFoundUrl }) : NOT_FOUND;
  }

  private answerFor(link: RedirectLinkSnapshot | null, req: RedirectRequest, place: '' | EdgeDomain): Answer | Promise<Answer> {
    const now = Date.now();
    if (!isLive(link, now)) {
      const outcome = decide(link, this.visit(req, now, null));
      return outcome.kind === 'not-found' ? this.notFound(place) : buildAnswer(outcome);
    }
    const unlocked = !link.passwordHash || this.passwords.unlocked(link, header(req.headers, 'cookie'), now);
    return this.visitLive(link, req, now, unlocked);
  }

  /** A live link: the click cap (when set), the pixel flag, then the decision. */
  private visitLive(link: RedirectLinkSnapshot, req: RedirectRequest, now: number, unlocked: boolean): Answer | Promise<Answer> {
    // A HEAD fetches no page (link checkers) and a locked link shows its form: no click recorded.
    const clickId = req.method === 'GET' && unlocked ? newClickId(now) : null;
    if (link.maxClicks !== null) {
      const known = this.caps.knownReached(link);
      if (known) return this.withPixel(link, req, now, clickId, unlocked, true);
      const counted = clickId !== null && !userAgentTraits(header(req.headers, 'user-agent')).bot;
      return this.caps
        .reached(link, counted)
        .then((reached) => this.withPixel(link, req, now, clickId, unlocked, reached));
    }
    return this.withPixel(link, req, now, clickId, unlocked, false);
  }

  private withPixel(
    link: RedirectLinkSnapshot,
    req: RedirectRequest,
    now: number,
    clickId: string | null,
    unlocked: boolean,
    capReached: boolean,
  ): Answer | Promise<Answer> {
    const pixel = clickId && !capReached ? this.pixels.hasPixelSite(link.organizationId) : false;
    if (pixel instanceof Promise) return pixel.then((flag) => this.visitLink(link, req, now, clickId, flag, unlocked, capReached));
    return this.visitLink(link, req, now, clickId, pixel, unlocked, capReached);
  }

  private visitLink(
    link: RedirectLinkSnapshot,
    req: RedirectRequest,
    now: number,
    clickId: string | null,
    pixel: boolean,
    unlocked: boolean,
    capReached: boolean,
  ): Answer {
    const ua = header(req.headers, 'user-agent');
    const visit = this.visit(req, now, pixel ? clickId : null, ua);
    visit.unlocked = unlocked;
    visit.capReached = capReached;
    const outcome: Outcome = decide(link, visit);
    // The answer first: a visit that could not be answered (it throws, or is a 5xx) records no click.
    const answer = buildAnswer(outcome);
    const recorded = outcome.kind === 'redirect' || outcome.kind === 'cloak' || outcome.kind === 'preview';
    if (clickId && recorded && answer.status < 500) {
      this.clicks.capture(this.click(clickId, link, req, now, visit, outcome.variant ?? null, outcome.rule ?? null));
    }
    return answer;
  }

  private visit(req: RedirectRequest, now: number, pixelClickId: string | null, ua: string | null = header(req.headers, 'user-agent')): VisitFacts {
    return new VisitFacts(now, req, ua, pixelClickId, this.countries, this.config.TRUSTED_CLIENT_IP_HEADER);
  }

  /** Null facts and an empty `query` are left out (fewer bytes per click through the queue; the worker reads a missing one as null / {}). */
  private click(
    id: string,
    link: RedirectLinkSnapshot,
    req: RedirectRequest,
    now: number,
    visit: VisitFacts,
    variantIndex: number | null,
    ruleIndex: number | null,
  ): ClickCapturedJob {
    const click: ClickCapturedJob = { id, linkId: link.id, organizationId: link.organizationId, clickedAt: clickTimeIso(now) };
    const ip = visit.ip();
    if (ip !== null) click.ip = ip;
    if (visit.ua !== null) click.userAgent = visit.ua;
    const referrer = header(req.headers, 'referer');
    if (referrer !== null) click.referrer = referrer;
    const acceptLanguage = header(req.headers, 'accept-language');
    if (acceptLanguage !== null) click.acceptLanguage = acceptLanguage;
    const query = utmOfQuery(req.query);
    if (query !== NO_UTM) click.query = query;
    if (variantIndex !== null) click.variantIndex = variantIndex;
    if (ruleIndex !== null) click.ruleIndex = ruleIndex;
    return click;
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
