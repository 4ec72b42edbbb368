import type { IncomingHttpHeaders } from 'node:http';
import { ClickCapturedJob, clickTimeIso } from '@dl/platform/click-codec';
import { clientIp, stripUnstorable } from '@dl/platform/http';
import { UTM_QUERY_KEYS } from '@dl/platform/validation';
import type { VisitFacts } from './decision';
import { CONTINUE_PARAM } from './decision';
import type { HostPlace } from './domain-table';
import type { RedirectLinkSnapshot } from './redirect-link';
import { acceptedLanguages, BrowserName, OsName, userAgentBrowser, userAgentOs, userAgentTraits, UserAgentTraits } from './visitor';

/** What the edge reads of an HTTP request: the bare `node:http` one or Fastify's. */
export interface EdgeRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** What a visit needs from the edge to learn its facts. */
export interface VisitContext {
  /** Country of a client IP (targeting and redirect rules). */
  countries: { country(ip: string | null): string | null };
  /** The header a trusted proxy puts the client IP in (`TRUSTED_CLIENT_IP_HEADER`). */
  trustedIpHeader: string | undefined;
}

/** Longest header value copied into a click or a fact. */
const MAX_FACT_LENGTH = 2048;
/** The `query` of a click without utm_* parameters (most): one shared object, never written to. */
const NO_UTM: Record<string, string> = Object.freeze({});

/**
 * One request for `/<code>`, carried once through the edge's steps and the decision (decisions
 * §15, §16): the request's facts (host, code, method, headers, query, time); the visitor's
 * (client IP, country, languages, platform, OS, browser), each computed the first time a step
 * asks; and what the steps learn (the host's place, the link, unlocked, click cap, click id,
 * pixel flag). The decision reads it (`VisitFacts`), the answer and the click are made from it.
 * A new step adds the fact it learns here and reads the ones before it.
 */
export class Visit implements VisitFacts {
  readonly now: number;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  /** Where the host points: a service host (''), a branded domain, or nowhere (null). */
  place: HostPlace = null;
  /** The link of (host, code), once looked up; null when there is none. */
  link: RedirectLinkSnapshot | null = null;
  /** The visitor proved the link's password (form or signed cookie), or it has none. */
  unlocked = false;
  /** The link's click cap is used up (counted by ClickCap). */
  capReached = false;
  /** The click this visit records: a GET or an unlock of a live link the visitor may see. */
  clickId: string | null = null;
  /** The link's organization is on a paid plan or has a pixel site: web destinations carry `dl_click`. */
  pixel = false;
  /** Set-Cookie of the answer (a password just proven). */
  setCookie: string | null = null;

  private traits: UserAgentTraits | undefined = undefined;
  private userAgent: string | null | undefined = undefined;
  private queryString: string | undefined = undefined;
  private clientIp: string | null | undefined = undefined;
  private countryCode: string | null | undefined = undefined;
  private languageList: readonly string[] | undefined = undefined;
  private osName: OsName | null | undefined = undefined;
  private browserName: BrowserName | null | undefined = undefined;
  private params: URLSearchParams | undefined = undefined;

  constructor(
    private readonly req: EdgeRequest,
    /** The path segment, decoded: a short code, or `<code>+` for its stats page. */
    readonly code: string,
    private readonly context: VisitContext,
    now = Date.now(),
  ) {
    this.now = now;
    this.method = req.method ?? 'GET';
    this.headers = req.headers;
  }

  /** A request header as a visitor fact: its first value, cut to 2,048 characters, NUL and lone surrogates stripped (decisions §14), null when empty. */
  header(name: string): string | null {
    const v = this.headers[name];
    const value = Array.isArray(v) ? v[0] : v;
    return value ? stripUnstorable(value.slice(0, MAX_FACT_LENGTH)) || null : null;
  }

  get ua(): string | null {
    if (this.userAgent === undefined) this.userAgent = this.header('user-agent');
    return this.userAgent;
  }

  get platform(): UserAgentTraits['platform'] {
    return (this.traits ??= userAgentTraits(this.ua)).platform;
  }

  get bot(): boolean {
    return (this.traits ??= userAgentTraits(this.ua)).bot;
  }

  /** The short URL's own query string, without '?' ('' when none). */
  get query(): string {
    if (this.queryString === undefined) {
      const url = this.req.url ?? '';
      const q = url.indexOf('?');
      this.queryString = q === -1 ? '' : url.slice(q + 1);
    }
    return this.queryString;
  }

  /** The visitor chose "Continue" on a suspicious link's warning page. */
  get continued(): boolean {
    return this.query.includes(CONTINUE_PARAM) && this.queryParams().get(CONTINUE_PARAM) === '1';
  }

  /** `dl_click` of a web destination: the click id when the organization is on a paid plan or has a pixel site. */
  get pixelClickId(): string | null {
    return this.pixel ? this.clickId : null;
  }

  /** A branded host's page for a code it does not know (`notFoundUrl`), else null: the 404 page. */
  get notFoundUrl(): string | null {
    return this.place ? this.place.notFoundUrl : null;
  }

  /** The client IP, resolved once (the decision's country and the click share it). */
  ip(): string | null {
    if (this.clientIp === undefined) this.clientIp = clientIp(this.headers, this.req.socket.remoteAddress, this.context.trustedIpHeader);
    return this.clientIp;
  }

  country(): string | null {
    if (this.countryCode === undefined) this.countryCode = this.context.countries.country(this.ip());
    return this.countryCode;
  }

  languages(): readonly string[] {
    return (this.languageList ??= acceptedLanguages(this.header('accept-language')));
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

  /** Stable per visitor (IP and user agent): picks the A/B variant. */
  visitorKey(): string {
    return `${this.ip() ?? ''}\n${this.ua ?? ''}`;
  }

  /**
   * The click this visit records (`clickId` set), with the variant and rule that chose its
   * destination. Null facts and an empty `query` are left out (fewer bytes per click through the
   * queue; the worker reads a missing one as null / {}).
   */
  click(variantIndex: number | null, ruleIndex: number | null): ClickCapturedJob {
    const link = this.link!;
    const click: ClickCapturedJob = { id: this.clickId!, linkId: link.id, organizationId: link.organizationId, clickedAt: clickTimeIso(this.now) };
    const ip = this.ip();
    if (ip !== null) click.ip = ip;
    const ua = this.ua;
    if (ua !== null) click.userAgent = ua;
    const referrer = this.header('referer');
    if (referrer !== null) click.referrer = referrer;
    const acceptLanguage = this.header('accept-language');
    if (acceptLanguage !== null) click.acceptLanguage = acceptLanguage;
    const query = utmOf(this.query);
    if (query !== NO_UTM) click.query = query;
    if (variantIndex !== null) click.variantIndex = variantIndex;
    if (ruleIndex !== null) click.ruleIndex = ruleIndex;
    return click;
  }
}

function utmOf(query: string): Record<string, string> {
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
