import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig, normalizeHost, serviceHosts } from '@dl/platform/config';
import { AssociationFiles, buildAssociationFiles } from './association-files';
import { RedirectLinkCache } from './redirect-link.cache';
import { RedirectStore } from './redirect-store';

/** Published on the link invalidation channel when any domain changes: every instance reloads its table. */
export const DOMAINS_CHANGED_MESSAGE = '@domains';

/** A branded domain as the edge keeps it. */
export interface EdgeDomain {
  id: string;
  organizationId: string;
  domain: string;
  status: 'verified' | 'invalid';
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
  inUse: boolean;
  files: AssociationFiles;
}

/** Where a request's host points: a service host (''), a branded domain, or nowhere (null). */
export type HostPlace = '' | EdgeDomain | null;

/** Safety net: the table is reloaded this often even without a message. */
const RELOAD_EVERY_MS = 15_000;

/**
 * The edge's map of hosts (decisions §15): the service's own hosts, and every branded domain
 * that serves links, loaded whole into memory (one map lookup per visit, no round trip) and
 * reloaded when a domain changes (the `@domains` message on the link invalidation channel,
 * so a change reaches every instance within 1 s) and every 15 s.
 */
@Injectable()
export class DomainTable implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('DomainTable');
  private readonly ownHosts: ReadonlySet<string>;
  private readonly forwardedHost: boolean;
  private byHost = new Map<string, EdgeDomain>();
  private timer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly store: RedirectStore,
    private readonly links: RedirectLinkCache,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHosts = serviceHosts(config);
    this.forwardedHost = Boolean(config.TRUSTED_CLIENT_IP_HEADER);
  }

  async onModuleInit(): Promise<void> {
    this.links.onMessage((message) => {
      if (message === DOMAINS_CHANGED_MESSAGE) void this.reload();
    });
    await this.reload();
    this.timer = setInterval(() => void this.reload(), RELOAD_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The request's host (`X-Forwarded-Host` only behind a trusted proxy), lower-cased, port stripped. */
  hostOf(headers: Record<string, string | string[] | undefined>): string | null {
    let raw = this.forwardedHost ? headers['x-forwarded-host'] : undefined;
    if (Array.isArray(raw)) raw = raw[0];
    if (typeof raw === 'string' && raw) {
      const comma = raw.indexOf(',');
      if (comma >= 0) raw = raw.slice(0, comma);
    } else {
      raw = headers.host as string | undefined;
    }
    return normalizeHost(raw);
  }

  place(headers: Record<string, string | string[] | undefined>): HostPlace {
    const host = this.hostOf(headers);
    if (host === null) return null;
    if (this.ownHosts.has(host)) return '';
    return this.byHost.get(host) ?? null;
  }

  /** A branded domain by name (for the TLS `ask` endpoint), or undefined. */
  domain(name: string): EdgeDomain | undefined {
    return this.byHost.get(name);
  }

  /** Reloads now; concurrent calls share one load, and a call during a load runs one more after it. */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = this.load()
      .catch((err: unknown) => this.logger.warn({ err }, 'domain table not reloaded'))
      .finally(() => {
        this.loading = null;
        if (this.again) {
          this.again = false;
          void this.reload();
        }
      });
    return this.loading;
  }

  private async load(): Promise<void> {
    const { domains, apps } = await this.store.servingDomains();
    const ios = new Map<string, Array<{ teamId: string; bundleId: string }>>();
    const android = new Map<string, Array<{ packageName: string; fingerprints: string[] }>>();
    for (const a of apps) {
      if (a.team_id && a.bundle_id) push(ios, a.organization_id, { teamId: a.team_id, bundleId: a.bundle_id });
      if (a.package_name && a.sha256_fingerprints?.length) push(android, a.organization_id, { packageName: a.package_name, fingerprints: a.sha256_fingerprints });
    }
    const next = new Map<string, EdgeDomain>();
    for (const d of domains) {
      next.set(d.domain, {
        id: d.id,
        organizationId: d.organization_id,
        domain: d.domain,
        status: d.status,
        rootRedirectUrl: d.root_redirect_url,
        notFoundUrl: d.not_found_url,
        inUse: d.in_use,
        files: buildAssociationFiles(ios.get(d.organization_id) ?? [], android.get(d.organization_id) ?? []),
      });
    }
    this.byHost = next;
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
