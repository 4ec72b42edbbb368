import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from '@dl/auth';
import { linkInvalidationChannel, RedisService } from '@dl/platform/redis';
import { SuspendedOrganization, SuspensionsRepository } from './suspensions.repository';

/**
 * Suspending an organization (decisions §22): its links answer the disabled page, its keys and
 * sessions 403 `Organization suspended`, its webhooks and scheduled emails stop; nothing is
 * deleted. The credential caches and every edge's link caches are invalidated at once, so it
 * takes effect everywhere well within 15 s.
 */
@Injectable()
export class SuspensionsService {
  private readonly logger = new Logger(SuspensionsService.name);

  constructor(
    private readonly repo: SuspensionsRepository,
    private readonly redis: RedisService,
    @Inject(CREDENTIAL_INVALIDATION) private readonly credentials: CredentialInvalidation,
    private readonly audit: AuditSink,
  ) {}

  suspend(organizationId: string, reason: string): Promise<SuspendedOrganization | null> {
    return this.set(organizationId, new Date(), reason);
  }

  unsuspend(organizationId: string): Promise<SuspendedOrganization | null> {
    return this.set(organizationId, null, null);
  }

  isSuspended(organizationId: string): Promise<boolean> {
    return this.repo.isSuspended(organizationId);
  }

  private async set(organizationId: string, at: Date | null, reason: string | null): Promise<SuspendedOrganization | null> {
    const org = await this.repo.setSuspension(organizationId, at, reason);
    if (!org) return null;
    this.audit.record({ organizationId, action: at ? 'organization.suspended' : 'organization.unsuspended', targetId: organizationId, changes: { reason } });
    await this.credentials.organizationChanged(organizationId);
    const addresses = await this.repo.linkAddresses(organizationId);
    const channel = linkInvalidationChannel(this.redis);
    for (let i = 0; i < addresses.length; i += 1000) {
      const pipeline = this.redis.client.pipeline();
      for (const a of addresses.slice(i, i + 1000)) pipeline.publish(channel, a);
      await pipeline.exec();
    }
    this.logger.log({ organizationId, suspended: at !== null, reason, links: addresses.length }, 'organization suspension changed');
    return org;
  }
}
