import { Injectable } from '@nestjs/common';
import { Principal } from '@dl/auth';
import { LinkDomains, refuseCloakOnServiceHost } from './link-domains';
import { LinkEventsService } from './link-events.service';
import { newLinkRow, passwordHashOf, requestedDomain } from './link-values';
import { CreateLinkDto } from './link.dto';
import { LinkRecord, NewLinkRow } from './link.types';
import { LinkWriter } from './link-writer';
import { LinksRepository, TemplateRef } from './links.repository';
import { ProjectNotFoundError, TemplateNotFoundError } from './links.errors';
import { forItem } from './validate-item';
import { blockedError, LinkScreening } from './link-screening';

/** A new link that names no domain: the insert puts it on the organization's default domain, else the service host. */
const DEFAULT_PLACE = { domainId: null, domainName: null };

/** How long a template read for a create is reused (per instance). */
const TEMPLATE_CACHE_MS = 5000;

/**
 * Creating links, one or many: single create is a bulk of one. From validated create
 * bodies to committed links and their notifications: templates, projects, domains, the
 * values of each row, password hashes, then LinkWriter's insert (plan limit, codes).
 */
@Injectable()
export class LinkCreation {
  /**
   * Templates rarely change and every create reads one: a 5-second per-instance cache
   * (keyed by organization and id) saves a query on the hot path. A change to a template's
   * defaults reaches new links within 5 s; a deleted template still fails the insert
   * (foreign key) with 404.
   */
  private readonly templates = new Map<string, { at: number; value: TemplateRef }>();

  constructor(
    private readonly repo: LinksRepository,
    private readonly writer: LinkWriter,
    private readonly events: LinkEventsService,
    private readonly domains: LinkDomains,
    private readonly screening: LinkScreening,
  ) {}

  /**
   * Creates every link or none (input order kept). `path(i)` names item i in a 400
   * (bulk: `links[3]`); without it the errors are the single item's own.
   */
  async create(principal: Principal, dtos: readonly CreateLinkDto[], path?: (i: number) => string): Promise<LinkRecord[]> {
    if (!dtos.length) return [];
    const rows = await this.rows(principal, dtos, path);
    const links = await this.writer.insertAll(principal.organizationId, principal.tier, rows);
    await this.events.linksChanged('link.created', links);
    return links;
  }

  private async rows(principal: Principal, dtos: readonly CreateLinkDto[], path?: (i: number) => string): Promise<NewLinkRow[]> {
    const org = principal.organizationId;
    const templates = await this.templatesOf(org, dtos.map((d) => d.templateId));
    if (dtos.some((d) => !templates.has(d.templateId))) throw new TemplateNotFoundError();
    const projectIds = [...new Set(dtos.map((d) => d.projectId).filter((p): p is string => !!p))];
    if (projectIds.length && (await this.repo.existingProjectIds(org, projectIds)).size !== projectIds.length) {
      throw new ProjectNotFoundError();
    }
    const wanted = dtos.map((dto) => requestedDomain(dto, templates.get(dto.templateId)!));
    const places = new Map<string | undefined, { domainId: string | null; domainName: string | null }>([[undefined, DEFAULT_PLACE]]);
    for (const [i, name] of wanted.entries()) {
      if (!places.has(name)) places.set(name, await forItem(path?.(i), () => this.domains.resolve(org, name)));
    }
    const now = new Date();
    const rows = await Promise.all(
      dtos.map((dto, i) => forItem(path?.(i), () => newLinkRow(principal, dto, templates.get(dto.templateId)!, places.get(wanted[i])!, now))),
    );
    // After the template's defaults: a template's `cloak` counts too. A row without a domain goes on the default one.
    for (const [i, row] of rows.entries()) {
      if (row.cloak !== true) continue;
      const place = row.domainName ?? (await this.domains.resolve(org, undefined)).domainName;
      await forItem(path?.(i), () => refuseCloakOnServiceHost(row.cloak, place));
    }
    // Screened after the template's defaults are applied: a default destination is screened too.
    const safety = await this.screening.screenAll(rows);
    for (const [i, s] of safety.entries()) {
      if (Array.isArray(s)) await forItem(path?.(i), () => Promise.reject(blockedError(s)));
      else Object.assign(rows[i], s);
    }
    for (const [i, dto] of dtos.entries()) rows[i].passwordHash = (await passwordHashOf(dto.password)) ?? null;
    return rows;
  }

  /** The organization's templates among these ids (cached ones first, the rest in one query). */
  private async templatesOf(organizationId: string, ids: string[]): Promise<Map<string, TemplateRef>> {
    const out = new Map<string, TemplateRef>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const hit = this.templates.get(`${organizationId}:${id}`);
      if (hit && Date.now() - hit.at < TEMPLATE_CACHE_MS) out.set(id, hit.value);
      else missing.push(id);
    }
    if (!missing.length) return out;
    if (this.templates.size > 10_000) this.templates.clear();
    for (const t of await this.repo.findTemplates(organizationId, missing)) {
      this.templates.set(`${organizationId}:${t.id}`, { at: Date.now(), value: t });
      out.set(t.id, t);
    }
    return out;
  }
}
