import { Inject, Injectable } from '@nestjs/common';
import { DomainsRepository, normalizeDomainName } from '@dl/domains';
import { APP_CONFIG, AppConfig, serviceHosts } from '@dl/platform/config';
import { ValidationError } from '@dl/platform/http';

export const LINK_DOMAIN_MESSAGE = 'Must be a verified domain of your organization';

/** Where a link lives: a branded domain (id and name) or the service's own host (null, ''). */
export interface LinkPlace {
  domainId: string | null;
  domainName: string;
}

export const SERVICE_HOST_PLACE: LinkPlace = { domainId: null, domainName: '' };

/**
 * Cloaking frames a destination under the link's host (decisions §22): never under the service's
 * shared host, whose reputation every tenant shares. `domainName` '' is the service host.
 */
export function refuseCloakOnServiceHost(cloak: boolean | null | undefined, domainName: string): void {
  if (cloak === true && domainName === '') throw new ValidationError({ cloak: 'Cloaking needs a branded domain' });
}

/**
 * Resolves a link's `domain` (decisions §15): a verified domain of the organization, or one of
 * the service's own hosts; without one, the organization's default domain, else the service host.
 * A pending, invalid, foreign or unknown domain → 400 `validation.domain`.
 */
@Injectable()
export class LinkDomains {
  private readonly ownHosts: ReadonlySet<string>;

  constructor(
    private readonly domains: DomainsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHosts = serviceHosts(config);
  }

  /**
   * The `domain_name` a list filter `domain=` means: '' (empty) or one of the service's own
   * hosts → '' (links on the service host); else the normalized name; not a host name → 400.
   */
  filterName(name: string): string {
    const trimmed = name.trim().toLowerCase();
    if (trimmed === '' || this.ownHosts.has(trimmed)) return '';
    const normalized = normalizeDomainName(trimmed);
    if (normalized && this.ownHosts.has(normalized)) return '';
    if (!normalized) throw new ValidationError({ domain: 'Must be a domain name' });
    return normalized;
  }

  async resolve(organizationId: string, name: string | null | undefined): Promise<LinkPlace> {
    if (name === undefined || name === null) {
      const d = await this.domains.findDefault(organizationId);
      return d ? { domainId: d.id, domainName: d.domain } : SERVICE_HOST_PLACE;
    }
    const normalized = normalizeDomainName(name) ?? (typeof name === 'string' ? name.toLowerCase() : null);
    if (normalized && this.ownHosts.has(normalized)) return SERVICE_HOST_PLACE;
    const d = normalized ? await this.domains.findByName(organizationId, normalized) : null;
    if (!d || d.status !== 'verified') throw new ValidationError({ domain: LINK_DOMAIN_MESSAGE });
    return { domainId: d.id, domainName: d.domain };
  }
}
