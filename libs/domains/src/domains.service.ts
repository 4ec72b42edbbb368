import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { PlansService, Principal } from '@dl/auth';
import { APP_CONFIG, AppConfig, serviceHosts } from '@dl/platform/config';
import { NoUpdatesError, normalizeUrlOrNull } from '@dl/platform/http';
import { linkInvalidationChannel, RedisService } from '@dl/platform/redis';
import { SafetyService } from '@dl/safety';
import { DnsVerifier } from './dns-verifier';
import { checkOutcome, RECHECK } from './domain-check';
import { normalizeDomainName } from './domain-name';
import { CreateDomainDto, UpdateDomainDto } from './domain.dto';
import { DomainResponseDto } from './domain-response.dto';
import { toDomainResponse } from './domain.mapper';
import { DomainRecord, DomainSettings, DomainsRepository } from './domains.repository';
import {
  DomainHasLinksError,
  DomainLimitError,
  DomainNotFoundError,
  DomainNotVerifiedDefaultError,
  DomainTakenError,
  InvalidDomainNameError,
} from './domains.errors';

/** Branded domains of an organization (decisions §15). */
@Injectable()
export class DomainsService {
  private readonly logger = new Logger(DomainsService.name);
  private readonly ownHosts: ReadonlySet<string>;

  constructor(
    private readonly repo: DomainsRepository,
    private readonly dns: DnsVerifier,
    private readonly plans: PlansService,
    private readonly redis: RedisService,
    private readonly safety: SafetyService,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly audit: AuditSink,
  ) {
    this.ownHosts = serviceHosts(config);
  }

  async list(organizationId: string): Promise<DomainResponseDto[]> {
    return (await this.repo.list(organizationId)).map(toDomainResponse);
  }

  async get(organizationId: string, id: string): Promise<DomainResponseDto> {
    return toDomainResponse(await this.found(organizationId, id));
  }

  async create(principal: Principal, dto: CreateDomainDto): Promise<DomainResponseDto> {
    const domain = normalizeDomainName(dto.domain);
    if (!domain || this.ownHosts.has(domain)) throw new InvalidDomainNameError();
    const token = randomBytes(16).toString('hex');
    const limit = this.plans.limits(principal.tier).domains;
    const result = await this.repo.create(principal.organizationId, domain, token, limit);
    if (result.kind === 'taken') throw new DomainTakenError(domain);
    if (result.kind === 'limit') throw new DomainLimitError();
    this.audit.record({ organizationId: principal.organizationId, action: 'domain.created', targetId: result.record.id, changes: { domain } });
    return toDomainResponse(result.record);
  }

  async update(organizationId: string, id: string, dto: UpdateDomainDto | undefined): Promise<DomainResponseDto> {
    const settings: DomainSettings = {};
    if (dto?.isDefault !== undefined) settings.isDefault = dto.isDefault;
    // Stored in their WHATWG form (decisions §14), like link destinations: an IDN host in
    // punycode, non-ASCII percent-encoded, so the edge's Location header is always valid.
    if (dto?.rootRedirectUrl !== undefined) settings.rootRedirectUrl = normalizeUrlOrNull(dto.rootRedirectUrl);
    if (dto?.notFoundUrl !== undefined) settings.notFoundUrl = normalizeUrlOrNull(dto.notFoundUrl);
    if (!Object.keys(settings).length) throw new NoUpdatesError();
    const urls = (['rootRedirectUrl', 'notFoundUrl'] as const).filter((k) => settings[k]).map((k): [string, string] => [k, settings[k]!]);
    await this.safety.refuseBlocked(urls);
    const result = await this.repo.update(organizationId, id, settings);
    if (result.kind === 'missing') throw new DomainNotFoundError();
    if (result.kind === 'not-verified') throw new DomainNotVerifiedDefaultError();
    this.audit.record({ organizationId, action: 'domain.updated', targetId: id, changes: { ...settings } });
    await this.announce();
    return toDomainResponse(result.record);
  }

  async delete(organizationId: string, id: string): Promise<{ success: true }> {
    const result = await this.repo.delete(organizationId, id);
    if (result.kind === 'missing') throw new DomainNotFoundError();
    if (result.kind === 'in-use') throw new DomainHasLinksError(result.links);
    this.audit.record({ organizationId, action: 'domain.deleted', targetId: id, changes: { domain: result.record.domain } });
    await this.announce();
    return { success: true };
  }

  /**
   * Looks the TXT record up now; answers the domain as it then is (verified or not). A claim
   * that another organization's verification removed meanwhile answers like a missing domain.
   */
  async verify(organizationId: string, id: string): Promise<DomainResponseDto> {
    const d = await this.found(organizationId, id);
    const checked = await this.check(d, 'manual', new Date());
    await this.announce();
    if (!checked) throw new DomainNotFoundError();
    return toDomainResponse(checked);
  }

  /**
   * The worker's schedule: removes pending claims older than 7 days, then re-checks every
   * domain due at `now` (pending ones every 10 minutes for 7 days, verified and invalid ones
   * daily), a few lookups at a time.
   */
  async recheckDue(now = new Date()): Promise<{ expired: number; checked: number; verified: number; invalid: number }> {
    const counts = { expired: 0, checked: 0, verified: 0, invalid: 0 };
    counts.expired = await this.repo.removeExpiredClaims(new Date(now.getTime() - RECHECK.pendingFor));
    if (counts.expired) this.logger.log({ removed: counts.expired }, 'pending domain claims older than 7 days removed');
    for (;;) {
      const due = await this.repo.dueForCheck(now, { ...RECHECK, limit: 200 });
      if (!due.length) {
        if (counts.checked) await this.announce();
        return counts;
      }
      for (let i = 0; i < due.length; i += 8) {
        const done = await Promise.all(due.slice(i, i + 8).map((d) => this.check(d, 'scheduled', now)));
        for (const d of done) {
          counts.checked++;
          if (!d) continue;
          if (d.status === 'verified') counts.verified++;
          if (d.status === 'invalid') counts.invalid++;
        }
      }
      if (due.length < 200) {
        await this.announce();
        return counts;
      }
    }
  }

  /** The domain after a DNS check, or null when its claim is gone (another organization verified the name first). */
  private async check(d: DomainRecord, source: 'manual' | 'scheduled', now: Date): Promise<DomainRecord | null> {
    const result = await this.dns.check(d.domain, d.verificationToken);
    const outcome = checkOutcome(d, result, now, source);
    const written = await this.repo.recordCheck(d.organizationId, d.id, outcome);
    if (written.kind !== 'recorded') {
      if (written.kind === 'lost') this.logger.log({ domain: d.domain, source }, 'pending claim removed: another organization holds the name');
      return null;
    }
    const updated = written.record;
    if (updated.status !== d.status) {
      this.audit.record({ organizationId: d.organizationId, action: updated.status === 'verified' ? 'domain.verified' : 'domain.updated', targetId: d.id, changes: { status: { from: d.status, to: updated.status }, source } });
      this.logger.log({ domain: d.domain, from: d.status, to: updated.status, source, removedClaims: written.removedClaims }, 'domain status changed');
    }
    return updated;
  }

  /**
   * Tells every redirect instance to reload its domain table (the `@domains` message on the
   * link invalidation channel); a failure is logged, the edge's 15-second reload catches up.
   */
  private async announce(): Promise<void> {
    try {
      await this.redis.client.publish(linkInvalidationChannel(this.redis), '@domains');
    } catch (err) {
      this.logger.error({ err: String(err) }, 'domain change not announced');
    }
  }

  private async found(organizationId: string, id: string): Promise<DomainRecord> {
    const d = await this.repo.find(organizationId, id);
    if (!d) throw new DomainNotFoundError();
    return d;
  }
}
