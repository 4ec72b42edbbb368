import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { Principal } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { BadRequestError, NoUpdatesError, ValidationError, ValidationMap } from '@dl/platform/http';
import { CreateLinkDto, UpdateLinkDto } from './link.dto';
import { LinkEventsService } from './link-events.service';
import { passwordHashOf } from './link-values';
import { LinkDomains } from './link-domains';
import { toLinkCreateResponse, toLinkResponse } from './link.mapper';
import { LinkCreateResponseDto, LinkResponseDto } from './link-response.dto';
import { LinkCreation } from './link-creation';
import { blockedError, LinkScreening, mergedDestinations, touchesDestinations } from './link-screening';
import { LinkPatch, LinksRepository } from './links.repository';
import { LinkNotFoundError, ProjectNotFoundError, TemplateNotFoundError } from './links.errors';
import { checkedPatch } from './links.service';
import { forItem, itemError, prefixErrors, validateItem } from './validate-item';
import { isPlainObject, isUuid } from '@dl/platform/validation';

export const BULK_MAX_ITEMS = 100;

/** Items of a bulk body: `Invalid links array`, unknown top-level fields, the 100-item cap. */
function itemsOf(body: unknown, field: 'links' | 'updates' | 'ids', what: 'create' | 'update' | 'delete'): unknown[] {
  if (!isPlainObject(body) || !Array.isArray(body[field])) throw new BadRequestError('Invalid links array');
  const unknown = Object.keys(body).filter((k) => k !== field);
  if (unknown.length) throw new ValidationError(Object.fromEntries(unknown.map((k) => [k, 'Unknown field'])));
  const items = body[field] as unknown[];
  if (items.length > BULK_MAX_ITEMS) throw new BadRequestError(`Maximum 100 links allowed per bulk ${what}`);
  return items;
}

/** Wraps an error raised for one item (values resolution) with the item's path. */
function forItemSync<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ValidationError && err.options.validation) throw itemError(path, err.options.validation);
    throw err;
  }
}

/** Bulk create/update/delete: at most 100 items, all-or-nothing in one transaction. */
@Injectable()
export class LinksBulkService {
  constructor(
    private readonly repo: LinksRepository,
    private readonly creation: LinkCreation,
    private readonly events: LinkEventsService,
    private readonly domains: LinkDomains,
    private readonly screening: LinkScreening,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditSink,
  ) {}

  async bulkCreate(principal: Principal, body: unknown): Promise<{ created: number; links: LinkCreateResponseDto[] }> {
    const items = itemsOf(body, 'links', 'create');
    const dtos = items.map((item, i) => {
      const { value, errors } = validateItem(CreateLinkDto, item);
      if (Object.keys(errors).length) throw itemError(`links[${i}]`, errors);
      return value;
    });
    const links = await this.creation.create(principal, dtos, (i) => `links[${i}]`);
    if (links.length) this.audit.record({ organizationId: principal.organizationId, action: 'links.bulk_created', changes: { count: links.length, ids: links.map((l) => l.id) } });
    return { created: links.length, links: links.map((l) => toLinkCreateResponse(l, this.config.SHORT_LINK_BASE_URL)) };
  }

  async bulkUpdate(principal: Principal, body: unknown): Promise<{ updated: number; links: LinkResponseDto[] }> {
    const items = itemsOf(body, 'updates', 'update');
    const updates = items.map((item, i) => {
      const path = `updates[${i}]`;
      if (!isPlainObject(item)) throw itemError(path, { '': 'Must be an object' });
      const errors: ValidationMap = {};
      for (const k of Object.keys(item)) if (k !== 'id' && k !== 'data') errors[k] = 'Unknown field';
      if (!isUuid(item.id)) errors.id = 'Must be a valid UUID';
      const { value, errors: dataErrors } = validateItem(UpdateLinkDto, item.data);
      Object.assign(errors, prefixErrors('data', dataErrors));
      if (Object.keys(errors).length) throw itemError(path, errors);
      const patch = forItemSync(path, () => {
        try {
          return checkedPatch(value);
        } catch (err) {
          if (err instanceof NoUpdatesError) {
            throw new ValidationError({ data: 'No updates provided' });
          }
          if (err instanceof ValidationError && err.options.validation) {
            throw new ValidationError(prefixErrors('data', err.options.validation));
          }
          throw err;
        }
      });
      return { id: item.id as string, patch, password: value.password, domain: value.domain, changes: value };
    });
    for (const u of updates) u.patch.passwordHash = await passwordHashOf(u.password);
    for (const [i, u] of updates.entries()) {
      if (u.domain !== undefined) {
        Object.assign(u.patch, await forItem(`updates[${i}]`, () => this.domains.resolve(principal.organizationId, u.domain).catch((err: unknown) => {
          if (err instanceof ValidationError && err.options.validation) throw new ValidationError(prefixErrors('data', err.options.validation));
          throw err;
        })));
      }
    }
    const org = principal.organizationId;
    const templateIds = [...new Set(updates.map((u) => u.patch.templateId).filter((t): t is string => !!t))];
    if ((await this.repo.findTemplates(org, templateIds)).length !== templateIds.length) throw new TemplateNotFoundError();
    await this.assertProjects(org, updates.map((u) => u.patch.projectId));
    await this.screenUpdates(org, updates);

    const links = await this.repo.transaction(async (tx) => {
      const ids = [...new Set(updates.map((u) => u.id))];
      const found = new Set((await this.repo.findByIds(org, ids, tx, true)).map((l) => l.id));
      const missing = updates.find((u) => !found.has(u.id));
      if (missing) throw new LinkNotFoundError(missing.id);
      const out = [];
      for (const u of updates) out.push((await this.repo.updateLink(org, u.id, u.patch as LinkPatch, tx))!);
      return out;
    });
    const changes = { count: links.length, updates: updates.map((u) => ({ id: u.id, changes: { ...u.changes } })) };
    if (links.length) this.audit.record({ organizationId: org, action: 'links.bulk_updated', changes });
    await this.events.linksChanged('link.updated', links);
    return { updated: links.length, links: links.map((l) => toLinkResponse(l, this.config.SHORT_LINK_BASE_URL)) };
  }

  async bulkDelete(principal: Principal, body: unknown): Promise<{ deleted: number }> {
    const items = itemsOf(body, 'ids', 'delete');
    const bad = items.findIndex((id) => !isUuid(id));
    if (bad >= 0) throw itemError(`ids[${bad}]`, { '': 'Must be a valid UUID' });
    const deleted = await this.repo.transaction((tx) =>
      this.repo.deleteLinks(principal.organizationId, [...new Set(items as string[])], tx),
    );
    if (deleted.length) this.audit.record({ organizationId: principal.organizationId, action: 'links.bulk_deleted', changes: { count: deleted.length, ids: deleted.map((l) => l.id) } });
    await this.events.linksChanged('link.deleted', deleted);
    return { deleted: deleted.length };
  }

  /** Screens the updates that change a destination, with the link's other destinations (400 naming `updates[i].data.<field>`). */
  private async screenUpdates(organizationId: string, updates: Array<{ id: string; patch: LinkPatch }>): Promise<void> {
    const touching = updates.filter((u) => touchesDestinations(u.patch));
    if (!touching.length) return;
    const current = new Map((await this.repo.findByIds(organizationId, [...new Set(touching.map((u) => u.id))])).map((l) => [l.id, l]));
    for (const [i, u] of updates.entries()) {
      if (!touchesDestinations(u.patch)) continue;
      const link = current.get(u.id);
      if (!link) throw new LinkNotFoundError(u.id);
      const [result] = await this.screening.screenAll([mergedDestinations(link, u.patch)]);
      if (Array.isArray(result)) throw itemError(`updates[${i}]`, prefixErrors('data', blockedError(result).options.validation ?? {}));
      Object.assign(u.patch, result);
    }
  }

  private async assertProjects(organizationId: string, projectIds: Array<string | null | undefined>): Promise<void> {
    const wanted = [...new Set(projectIds.filter((p): p is string => !!p))];
    const found = await this.repo.existingProjectIds(organizationId, wanted);
    if (found.size !== wanted.length) throw new ProjectNotFoundError();
  }
}
