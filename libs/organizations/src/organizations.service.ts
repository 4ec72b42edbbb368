import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation, InsufficientRoleError, Principal, TwoFactorService } from '@dl/auth';
import { LinkEventsService } from '@dl/links';
import { NoUpdatesError, ValidationError } from '@dl/platform/http';
import { DeletionScheduledResponseDto, OrganizationResponseDto } from './organization-response.dto';
import { UpdateOrganizationDto } from './organization.dto';
import { OrganizationSlugInUseError } from './organization.errors';
import { toOrganizationResponse } from './organization.mapper';
import { OrganizationSettingsRepository, OrganizationSettingsRow } from './organization-settings.repository';
import { OrganizationDeletionNotifier } from './organization-deletion.notifier';

/** Decisions §20: deletion happens this long after it is asked for; until then it can be undone. */
export const DELETION_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** The organization's own settings (decisions §20): name, slug, the 2FA requirement, scheduled deletion. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly repo: OrganizationSettingsRepository,
    private readonly twoFactor: TwoFactorService,
    private readonly linkEvents: LinkEventsService,
    private readonly notifier: OrganizationDeletionNotifier,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly audit: AuditSink,
  ) {}

  async get(organizationId: string): Promise<OrganizationResponseDto> {
    return toOrganizationResponse(await this.row(organizationId));
  }

  /** Admin: name and slug; Owner also requireTwoFactor, which the Owner can only turn on with 2FA of their own. */
  async update(principal: Principal, dto: UpdateOrganizationDto | undefined): Promise<OrganizationResponseDto> {
    const data: { name?: string; slug?: string; requireTwoFactor?: boolean } = {};
    if (dto?.name !== undefined) data.name = dto.name.trim();
    if (dto?.slug !== undefined) data.slug = dto.slug;
    if (dto?.requireTwoFactor !== undefined) {
      if (principal.role !== 'OWNER') throw new InsufficientRoleError();
      if (dto.requireTwoFactor && !(await this.twoFactor.isEnabled(principal.userId))) {
        throw new ValidationError({ requireTwoFactor: 'Turn on two-factor authentication for your own account first' });
      }
      data.requireTwoFactor = dto.requireTwoFactor;
    }
    if (!Object.keys(data).length) throw new NoUpdatesError();
    const row = await this.repo.update(principal.organizationId, data);
    if (!row) throw new OrganizationSlugInUseError(data.slug ?? '');
    this.audit.record({ organizationId: principal.organizationId, action: 'organization.updated', targetId: principal.organizationId, changes: data });
    if (data.requireTwoFactor !== undefined) await this.invalidation.organizationChanged(principal.organizationId);
    return toOrganizationResponse(row);
  }

  /**
   * Owner, with the slug typed as `confirm`: the organization stops working now (credentials
   * 403, links 404) and is deleted by the worker 7 days later. Asking again keeps the first date.
   */
  async scheduleDeletion(principal: Principal, confirm: string | undefined): Promise<DeletionScheduledResponseDto> {
    const current = await this.row(principal.organizationId);
    if (confirm !== current.slug) throw new ValidationError({ confirm: "Must be the organization's slug" });
    const row = (await this.repo.scheduleDeletion(principal.organizationId, new Date(Date.now() + DELETION_GRACE_MS))) ?? current;
    await this.changedEverywhere(principal.organizationId);
    if (!current.deletionScheduledAt) {
      this.audit.record({ organizationId: principal.organizationId, action: 'organization.deletion_scheduled', targetId: principal.organizationId, changes: { deletionScheduledAt: row.deletionScheduledAt } });
      await this.notifier.scheduled(principal, row);
    }
    return { deletionScheduledAt: row.deletionScheduledAt!.toISOString() };
  }

  /** Owner: undoes a scheduled deletion (a no-op when none is scheduled). */
  async restore(principal: Principal): Promise<OrganizationResponseDto> {
    const scheduled = (await this.row(principal.organizationId)).deletionScheduledAt;
    const row = await this.repo.cancelDeletion(principal.organizationId);
    if (!row) throw new InsufficientRoleError();
    if (scheduled) this.audit.record({ organizationId: principal.organizationId, action: 'organization.restored', targetId: principal.organizationId, changes: { deletionScheduledAt: { from: scheduled, to: null } } });
    await this.changedEverywhere(principal.organizationId);
    return toOrganizationResponse(row);
  }

  private async row(organizationId: string): Promise<OrganizationSettingsRow> {
    const row = await this.repo.find(organizationId);
    // The credential named it a moment ago; gone since means the worker deleted it.
    if (!row) throw new InsufficientRoleError();
    return row;
  }

  /** Credentials (403 or back) and the redirect caches of every link (404 page or back) follow the change at once. */
  private async changedEverywhere(organizationId: string): Promise<void> {
    await this.invalidation.organizationChanged(organizationId);
    for await (const keys of this.repo.linkKeys(organizationId)) await this.linkEvents.invalidate(keys);
  }
}
