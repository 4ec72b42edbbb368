import { plainToInstance, Transform } from 'class-transformer';
import { IsEnum, IsIn, IsOptional, IsString, Matches, MinLength, getMetadataStorage, validateSync } from 'class-validator';
import {
  DNS_SERVERS_PATTERN,
  EnvBool,
  EnvInt,
  EnvUrl,
  HOST_PORTS_PATTERN,
  OptionalEnv,
  OptionalEnvString,
  PostgresUrl,
  emptyToUndefined,
} from './env-decorators';
import { billingProblems } from './stripe-prices';

export enum NodeEnv {
  Development = 'development',
  Test = 'test',
  Production = 'production',
}

/**
 * Every environment variable the apps read, validated once at boot.
 * No other file reads process.env: apps receive an AppConfig.
 */
export class EnvironmentVariables {
  @IsEnum(NodeEnv)
  NODE_ENV: NodeEnv = NodeEnv.Development;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json` (one JSON object a line, for log collectors) or `pretty` (one human line an event; `npm start` in development). */
  @IsIn(['json', 'pretty'])
  LOG_FORMAT: 'json' | 'pretty' = 'json';

  @PostgresUrl()
  DATABASE_URL: string;

  /**
   * A streaming replica of DATABASE_URL: analytics, reports, lists and exports read from it
   * (falling back to the primary while it is down); unset, every read goes to the primary.
   */
  @OptionalEnv(PostgresUrl())
  DATABASE_READ_URL?: string;

  @Transform(emptyToUndefined)
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * Redis Cluster seed nodes (comma-separated `host:port`, decisions §18): when set, every Redis
   * client is an ioredis Cluster on them and REDIS_URL is not used.
   */
  @OptionalEnv(Matches(/^\s*[A-Za-z0-9.-]+:\d{1,5}(\s*,\s*[A-Za-z0-9.-]+:\d{1,5})*\s*$/, { message: 'must be a comma-separated list of host:port' }))
  REDIS_CLUSTER_NODES?: string;

  /** Prefix of every Redis key and BullMQ queue (tests use one per file). */
  @Matches(/^[A-Za-z0-9_:.-]{1,64}$/, { message: 'must be 1-64 characters of A-Z a-z 0-9 _ : . -' })
  REDIS_PREFIX = 'dl';

  @IsString() HOST = '0.0.0.0';

  @EnvInt(0, 65535) API_PORT = 3000;
  @EnvInt(0, 65535) REDIRECT_PORT = 3001;
  @EnvInt(0, 65535) INGEST_PORT = 3002;
  @EnvInt(0, 65535) WORKER_PORT = 3003;

  @OptionalEnv(IsString(), MinLength(32, { message: 'must be at least 32 characters' }))
  JWT_SECRET?: string;

  @EnvInt(60) JWT_TTL_SECONDS = 3600;

  /** The api's public base URL: the Stripe and Shopify endpoints it shows are under it (decisions §23). */
  @EnvUrl()
  API_PUBLIC_URL = 'http://localhost:3000';

  /** Base of every short URL: SHORT_LINK_BASE_URL + '/' + code. */
  @EnvUrl()
  SHORT_LINK_BASE_URL = 'http://localhost:3001';

  /**
   * More hosts of the service itself (comma-separated host names), besides the host of
   * SHORT_LINK_BASE_URL: they serve the links on no branded domain (decisions §15).
   */
  @OptionalEnv(Matches(/^\s*[A-Za-z0-9.[\]:-]+(\s*,\s*[A-Za-z0-9.[\]:-]+)*\s*$/, { message: 'must be a comma-separated list of host names' }))
  SERVICE_HOSTS?: string;

  /**
   * DNS servers for branded-domain verification (comma-separated `ip:port`, `[ipv6]:port` or
   * an IP alone for port 53); the system resolver when unset.
   */
  @OptionalEnv(Matches(DNS_SERVERS_PATTERN, { message: 'must be a comma-separated list of ip:port' }))
  DNS_SERVERS?: string;

  @OptionalEnvString() CORS_ORIGIN?: string;

  /** Header carrying the real client IP behind a trusted proxy (e.g. cf-connecting-ip). */
  @Transform(({ value }) => (typeof value === 'string' && value ? value.toLowerCase() : undefined))
  @IsOptional()
  @Matches(/^[a-z0-9-]+$/, { message: 'must be an HTTP header name' })
  TRUSTED_CLIENT_IP_HEADER?: string;

  @OptionalEnvString() IOS_TEAM_ID?: string;
  @OptionalEnvString() IOS_BUNDLE_ID?: string;
  @OptionalEnvString() ANDROID_PACKAGE_NAME?: string;
  /** Comma-separated SHA-256 certificate fingerprints. */
  @OptionalEnvString() ANDROID_SHA256_FINGERPRINTS?: string;

  /** A MaxMind GeoIP2/GeoLite2 City database; defaults to the one in the geolite2 package. */
  @OptionalEnvString() GEOIP_DATABASE_PATH?: string;

  @OptionalEnv(Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' }))
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM = 'Deeplink Reports <reports@localhost>';

  /** Where emails go when SMTP_URL is not set. */
  @IsString()
  MAIL_OUTBOX_DIR = 'var/outbox';

  /** Seconds a live-month report is kept in Redis per organization (decisions §14: 60; 0 builds on every read). */
  @EnvInt(0, 3600) REPORT_LIVE_CACHE_SECONDS = 60;

  /** Longest graceful shutdown on SIGTERM/SIGINT (drain HTTP, flush, hand back jobs, close pools) before the process exits anyway. */
  @EnvInt(100) SHUTDOWN_TIMEOUT_MS = 25000;

  /** Durable local fallback for clicks when Redis is unreachable. */
  @IsString()
  CLICK_FALLBACK_DIR = 'var/click-fallback';

  /**
   * Identity providers (OIDC issuers, SAML endpoints) that may be plain `http`: comma-separated
   * `host:port` (local providers and tests). Every other one must be `https` (decisions §25).
   */
  @OptionalEnv(Matches(HOST_PORTS_PATTERN, { message: 'must be a comma-separated list of host:port' }))
  SSO_ALLOW_HTTP_HOSTS?: string;

  /** Comma-separated CIDRs webhook deliveries may reach despite the SSRF guard. */
  @OptionalEnvString() WEBHOOK_ALLOW_CIDRS?: string;

  /** Per-attempt timeout of a webhook delivery (contract: 30 s; tests shorten it). */
  @EnvInt(100) WEBHOOK_TIMEOUT_MS = 30000;

  /** First retry delay of a failed delivery; doubles each retry (with jitter). */
  @EnvInt(10) WEBHOOK_RETRY_BASE_MS = 60000;

  /** Deliveries started per second per webhook, shared by every worker instance. */
  @EnvInt(1) WEBHOOK_MAX_PER_SECOND = 10;

  /** Attempts in flight at once per webhook and per organization (tenant isolation). */
  @EnvInt(1) WEBHOOK_MAX_IN_FLIGHT = 10;
  @EnvInt(1) WEBHOOK_ORG_MAX_IN_FLIGHT = 40;

  /** How often the worker re-queues webhook lanes whose drain job died (after a long outage). */
  @EnvInt(100) WEBHOOK_LANE_SWEEP_MS = 30000;

  /** Concurrent webhook jobs per worker instance (mostly waiting on receivers). */
  @EnvInt(1) WEBHOOK_CONCURRENCY = 512;

  @EnvBool() RATE_LIMIT_ENABLED = true;

  /** The sliding window of the rate limits: a minute (tests change it). */
  @EnvInt(1000, 3_600_000) RATE_LIMIT_WINDOW_MS = 60000;

  /**
   * How long a request waits for the shared rate-limit counter in Redis before this process counts
   * alone (never a 500). A slow answer still counts in Redis, so a process that gave up on it may
   * admit a few more than the plan allows: a longer wait trades latency for exactness. The login
   * throttle (10 password checks per email) waits as long.
   */
  @EnvInt(10, 10_000) RATE_LIMIT_REDIS_TIMEOUT_MS = 250;

  /** Requests a minute of one user's dashboard sessions (JWT) in one organization (decisions §20); plan limits count API keys. */
  @EnvInt(1) DASHBOARD_RATE_LIMIT_PER_MINUTE = 300;

  /** Login and signup attempts a minute per client IP (decisions §14), shared through Redis. */
  @EnvInt(1) AUTH_RATE_LIMIT_PER_MINUTE = 20;

  /** log2 of the scrypt cost N of new password hashes (decisions §14: 17); older hashes are upgraded at login. */
  @EnvInt(14, 20) PASSWORD_SCRYPT_LOG2N = 17;

  /** When set, /metrics also answers `Authorization: Bearer <METRICS_TOKEN>` from non-loopback clients. */
  @OptionalEnv(IsString(), MinLength(16, { message: 'must be at least 16 characters' }))
  METRICS_TOKEN?: string;

  /** Stripe secret key (decisions §21): with STRIPE_WEBHOOK_SECRET it turns billing on; unset, tiers stay operator-set. */
  @OptionalEnv(Matches(/^(sk|rk)_[A-Za-z0-9_]{8,}$/, { message: 'must be a Stripe secret key (sk_… or rk_…)' }))
  STRIPE_SECRET_KEY?: string;

  /** The signing secret of the Stripe webhook endpoint (`whsec_…`). */
  @OptionalEnv(Matches(/^whsec_[A-Za-z0-9+/=_-]{8,}$/, { message: 'must be a Stripe webhook signing secret (whsec_…)' }))
  STRIPE_WEBHOOK_SECRET?: string;

  /** Prices of the paid tiers, JSON: {"PRO":{"month":{"price":"price_…","amount":1900,"currency":"usd"},"year":{…}},…}. */
  @OptionalEnvString() STRIPE_PRICES?: string;

  /** Base URL of the Stripe API the `stripe` client calls (tests: a loopback server); unset: Stripe's own. */
  @OptionalEnv(EnvUrl())
  STRIPE_API_BASE?: string;

  /** The dashboard's base URL: Stripe Checkout and the customer portal return there, account emails link there. */
  @EnvUrl()
  DASHBOARD_URL = 'http://localhost:3000/app';

  /** How often an api process looks for organizations whose past-due grace (7 days) has ended. */
  @EnvInt(100, 3_600_000) BILLING_GRACE_SWEEP_MS = 60000;

  /** JSON overrides of plan limits, e.g. {"FREE":{"requestsPerMinute":20}}. */
  @OptionalEnvString() PLAN_LIMITS?: string;

  /** SDK and pixel ingestion: requests (events) a minute per app token or site key (sliding window). */
  @EnvInt(1) INGEST_RATE_LIMIT_PER_MINUTE = 60000;

  /**
   * Processes of this app (node:cluster: they share its port; docs/decisions/platform.md). One by
   * default; the number of cores for a host that runs only this app.
   */
  @EnvInt(1, 64) WEB_CONCURRENCY = 1;

  /**
   * Threat feeds screening every stored destination (decisions §22): comma-separated file paths,
   * each URLhaus CSV, one URL a line, one domain a line or hosts-file lines (mixed is fine).
   */
  @OptionalEnvString() THREAT_FEEDS?: string;

  /** How often the feed files are checked for changes (a change takes effect within 30 s). */
  @EnvInt(100, 30_000) THREAT_FEEDS_POLL_MS = 5000;

  /** Brands whose IDN look-alikes are suspicious: comma-separated domains (`paypal.com`) or names. */
  @OptionalEnvString() PROTECTED_BRANDS?: string;

  /**
   * Google Safe Browsing v4 (decisions §22): with a key, every stored destination is also looked
   * up with `threatMatches:find`; `SAFE_BROWSING_API_BASE` points the client elsewhere (tests).
   */
  @OptionalEnvString() SAFE_BROWSING_API_KEY?: string;
  @EnvUrl() SAFE_BROWSING_API_BASE = 'https://safebrowsing.googleapis.com';

  /** How long a screen waits for Safe Browsing before accepting the link and leaving it to the worker's re-check. */
  @EnvInt(50, 10_000) SAFE_BROWSING_TIMEOUT_MS = 1500;

  /** How often the worker re-checks links Safe Browsing could not answer for. */
  @EnvInt(100, 3_600_000) SAFE_BROWSING_RECHECK_MS = 60_000;

  /** Links blocked by re-screening within 24 h after which an organization is suspended pending review (decisions §22). */
  @EnvInt(1, 1_000_000) AUTO_SUSPEND_BLOCKED_LINKS = 3;

  /** Link password checks (scrypt) running at once per redirect process, and waiting beyond those (decisions §22: full → the 429 page). */
  @EnvInt(1, 64) LINK_PASSWORD_CHECK_CONCURRENCY = 1;
  @EnvInt(0, 10_000) LINK_PASSWORD_CHECK_QUEUE = 32;

  /** Names never seen before for which `/tls/ask` says yes, per organization and UTC day (decisions §22). */
  @EnvInt(1, 100_000) TLS_NEW_NAMES_PER_ORG_PER_DAY = 20;

  /** Links a FREE organization may create in its first 24 hours (decisions §22). */
  @EnvInt(1) NEW_ORG_LINK_LIMIT = 50;

  /** Run schedules (monthly reports, retention) in this worker. */
  @EnvBool() WORKER_SCHEDULES_ENABLED = true;
}

export type AppConfig = Readonly<EnvironmentVariables>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates raw variables into a typed AppConfig. Throws ConfigError naming every
 * missing or bad variable. Unknown variables are ignored.
 */
export function loadConfig(raw: Record<string, string | undefined> = process.env): AppConfig {
  // Every validated property, including optional ones without a default (SMTP_URL, CORS_ORIGIN, ...).
  const known = [
    ...Object.keys(new EnvironmentVariables()),
    ...getMetadataStorage()
      .getTargetValidationMetadatas(EnvironmentVariables, '', true, false)
      .map((m) => m.propertyName),
  ];
  const picked: Record<string, string> = {};
  for (const key of [...known, 'DATABASE_URL', 'JWT_SECRET']) {
    const v = raw[key];
    if (v !== undefined) picked[key] = v;
  }
  const config = plainToInstance(EnvironmentVariables, picked, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  const problems = errors.map((e) => {
    if (e.value === undefined || e.value === null) return `${e.property} is required`;
    const why = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
    return `${e.property} ${why.replace(new RegExp(`^${e.property}\\s*`), '')}`;
  });
  if (config.NODE_ENV === NodeEnv.Production && !config.JWT_SECRET) {
    problems.push('JWT_SECRET is required in production');
  }
  problems.push(...billingProblems(config));
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** Runs loadConfig for an app's main(); prints the problems and exits 1 on error. */
export function loadConfigOrExit(appName: string, raw: Record<string, string | undefined> = process.env): AppConfig {
  try {
    return loadConfig(raw);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`[${appName}] cannot start. ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
