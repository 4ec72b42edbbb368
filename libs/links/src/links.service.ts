import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { Principal } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { NoUpdatesError, ValidationError } from '@dl/platform/http';
import { URL_MESSAGE } from '@dl/platform/validation';
import { ATTRIBUTION_MESSAGE } from './link-fields.dto';
import { CreateLinkDto, UpdateLinkDto } from './link.dto';
import { passwordHashOf, suppliedFields } from './link-values';
import { LinkDomains, refuseCloakOnServiceHost } from './link-domains';
import { hostCodeKey } from '@dl/platform/config';
import { isUniqueViolation } from '@dl/platform/db';
import { toLinkCreateResponse, toLinkResponse } from './link.mapper';
import { LinkCreateResponseDto, LinkResponseDto } from './link-response.dto';
import { LinkRecord } from './link.types';
import { LinkEventsService } from './link-events.service';
import { LinkCreation } from './link-creation';
import { LinkScreening, mergedDestinations, touchesDestinations } from './link-screening';
import { LinkPatch, LinksRepository } from './links.repository';
import { decodeListCursor, LinkListFilter, LinkListPage, LinkListQuery } from './link-list';
import { LinkNotFoundError, ProjectNotFoundError, ShortCodeInUseError, TemplateNotFoundError } from './links.errors';
import { ATTRIBUTION_WINDOW_MESSAGE, INVALID_URL_MESSAGE } from './validation-messages';

/** Single-link use cases: create, read, list, update, delete. */
@Injectable()
export class LinksService {
  constructor(
    private readonly repo: LinksRepository,
    private readonly creation: LinkCreation,
    private readonly events: LinkEventsService,
    private readonly domains: LinkDomains,
    private readonly screening: LinkScreening,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditSink,
  ) {}

  /** Single create: a bulk of one (LinkCreation), answered in the Cloud create shape. */
  async create(principal: Principal, dto: CreateLinkDto): Promise<LinkCreateResponseDto> {
    const [link] = await this.creation.create(principal, [dto]);
    this.audit.record({ organizationId: link.organizationId, action: 'link.created', targetId: link.id, changes: { ...dto, shortCode: link.shortCode, domain: link.domainName || null } });
    return toLinkCreateResponse(link, this.config.SHORT_LINK_BASE_URL);
  }

  async get(organizationId: string, id: string): Promise<LinkResponseDto> {
    return toLinkResponse(await this.getRecord(organizationId, id), this.config.SHORT_LINK_BASE_URL);
  }

  /** For other domains (analytics): the link of this organization, or 404 `Link not found`. */
  async getRecord(organizationId: string, id: string): Promise<LinkRecord> {
    const link = await this.repo.findById(organizationId, id);
    if (!link) throw new LinkNotFoundError();
    return link;
  }

  /** The list as JSON text (newest first), optionally one project's links. */
  async listJson(organizationId: string, projectId?: string): Promise<string> {
    return (await this.listPage(organizationId, { projectId })).json;
  }

  /**
   * One page of the list (every match without `limit`). A foreign project → 404 like a
   * missing one; a domain that is not the organization's simply matches none of its links.
   */
  async listPage(organizationId: string, query: LinkListQuery): Promise<LinkListPage> {
    const { domain, cursor, ...rest } = query;
    const filter: LinkListFilter = { ...rest };
    if (domain !== undefined) filter.domainName = this.domains.filterName(domain);
    if (cursor !== undefined) filter.cursor = decodeListCursor(cursor);
    if (filter.search !== undefined && !filter.search.trim()) delete filter.search;
    if (filter.projectId) {
      const found = await this.repo.existingProjectIds(organizationId, [filter.projectId]);
      if (!found.has(filter.projectId)) throw new ProjectNotFoundError();
    }
    return this.repo.listPage(organizationId, filter);
  }

  /** `{tags: [{name, count}]}` of the organization, most used first. */
  tagsJson(organizationId: string): Promise<string> {
    return this.repo.tagsJson(organizationId);
  }

  async update(principal: Principal, id: string, dto: UpdateLinkDto | undefined): Promise<LinkResponseDto> {
    const patch = await this.patchFrom(principal.organizationId, dto);
    if (patch.cloak === true || (patch.domainName !== undefined && patch.cloak !== false)) {
      // The link as it will be: turning cloaking on, or moving a cloaked link, checks its host.
      const current = await this.repo.findById(principal.organizationId, id);
      if (!current) throw new LinkNotFoundError();
      refuseCloakOnServiceHost(patch.cloak ?? current.cloak, patch.domainName ?? current.domainName);
    }
    if (touchesDestinations(patch)) {
      // The link's status covers all its destinations: the changed ones with the others.
      const current = await this.repo.findById(principal.organizationId, id);
      if (!current) throw new LinkNotFoundError();
      Object.assign(patch, await this.screening.screenOne(mergedDestinations(current, patch)));
    }
    if (patch.domainName === undefined) {
      const link = await this.repo.updateLink(principal.organizationId, id, patch);
      if (!link) throw new LinkNotFoundError();
      this.audit.record({ organizationId: link.organizationId, action: 'link.updated', targetId: link.id, changes: { ...dto } });
      await this.events.linksChanged('link.updated', [link]);
      return toLinkResponse(link, this.config.SHORT_LINK_BASE_URL);
    }
    // Moving to another domain: 409 when the code is taken there; the old address and QR images go.
    const before = await this.repo.findById(principal.organizationId, id);
    if (!before) throw new LinkNotFoundError();
    const link = await this.repo
      .transaction(async (tx) => {
        const updated = await this.repo.updateLink(principal.organizationId, id, patch, tx);
        if (updated && updated.domainName !== before.domainName) await this.repo.deleteQrImages(principal.organizationId, id, tx);
        return updated;
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err) || String((err as Error)?.message).includes('links_domain_name_short_code_key')) {
          throw new ShortCodeInUseError(before.shortCode);
        }
        throw err;
      });
    if (!link) throw new LinkNotFoundError();
    if (link.domainName !== before.domainName) await this.events.invalidate([hostCodeKey(before.domainName, before.shortCode)]);
    this.audit.record({ organizationId: link.organizationId, action: 'link.updated', targetId: link.id, changes: { ...dto } });
    await this.events.linksChanged('link.updated', [link]);
    return toLinkResponse(link, this.config.SHORT_LINK_BASE_URL);
  }

  /**
   * Turns an update body into a patch: 400 `No updates provided` when empty,
   * 400 for nulls on required fields, 404 for a foreign template or project.
   */
  async patchFrom(organizationId: string, dto: UpdateLinkDto | undefined): Promise<LinkPatch> {
    const patch = checkedPatch(dto);
    patch.passwordHash = await passwordHashOf(dto?.password);
    if (dto?.domain !== undefined) Object.assign(patch, await this.domains.resolve(organizationId, dto.domain));
    if (patch.templateId) {
      const template = await this.repo.findTemplate(organizationId, patch.templateId);
      if (!template) throw new TemplateNotFoundError();
    }
    if (patch.projectId) {
      const found = await this.repo.existingProjectIds(organizationId, [patch.projectId]);
      if (!found.has(patch.projectId)) throw new ProjectNotFoundError();
    }
    return patch;
  }

  async delete(organizationId: string, id: string): Promise<{ success: true }> {
    const deleted = await this.repo.deleteLinks(organizationId, [id]);
    if (!deleted.length) throw new LinkNotFoundError();
    this.audit.record({ organizationId, action: 'link.deleted', targetId: id, changes: { shortCode: deleted[0].shortCode, domain: deleted[0].domainName || null } });
    await this.events.linksChanged('link.deleted', deleted);
    return { success: true };
  }
}

/** The patch of a validated update body, without database checks. */
export function checkedPatch(dto: UpdateLinkDto | undefined): LinkPatch {
  const supplied = Object.entries(dto ?? {}).filter(([, v]) => v !== undefined);
  if (!supplied.length || !dto) throw new NoUpdatesError();
  if (dto.originalUrl === null) throw new ValidationError({ originalUrl: URL_MESSAGE }, INVALID_URL_MESSAGE);
  if (dto.attributionWindowHours === null) {
    throw new ValidationError({ attributionWindowHours: ATTRIBUTION_MESSAGE }, ATTRIBUTION_WINDOW_MESSAGE);
  }
  if (dto.isActive === null) throw new ValidationError({ isActive: 'Must be a boolean' });
  if (dto.templateId === null) throw new ValidationError({ templateId: 'Must be a valid UUID' });
  const patch: LinkPatch = suppliedFields(dto);
  if (dto.isActive !== undefined) patch.isActive = dto.isActive;
  if (dto.templateId !== undefined) patch.templateId = dto.templateId;
  if (dto.projectId !== undefined) patch.projectId = dto.projectId;
  return patch;
}
