import { Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { Principal } from '@dl/auth';
import { isDataError } from '@dl/platform/db';
import { DomainError, findUnstorableText, UNSTORABLE_TEXT_MESSAGE, ValidationError } from '@dl/platform/http';
import { DeadLetters } from '@dl/platform/queue';
import { ImportLinkFieldsDto } from '../link.dto';
import { LinkDomains, LinkPlace, refuseCloakOnServiceHost, SERVICE_HOST_PLACE } from '../link-domains';
import { hostCodeKey } from '@dl/platform/config';
import { LinkEventsService } from '../link-events.service';
import { passwordHashOf, readTemplateDefaults, resolveNewLink, suppliedFields, TemplateDefaults } from '../link-values';
import { LinkRecord, MigrationMetadata, NewLinkRow } from '../link.types';
import { LinkWriter } from '../link-writer';
import { LinkScreening } from '../link-screening';
import { LinksRepository } from '../links.repository';
import { LinkLimitExceededError, ProjectNotFoundError, TemplateNotFoundError } from '../links.errors';
import { generateShortCode, isReservedCode } from '../short-code';
import { firstField, validateItem } from '../validate-item';
import { CsvTable } from './csv-reader';
import { mapRow, planColumns } from './import-columns';
import { ImportOptionsDto, ImportResultDto } from './import.dto';

/** Imported codes may carry the `-` and `_` other platforms allow (Branch aliases). */
const IMPORT_CODE = /^[A-Za-z0-9_-]{1,64}$/;
const BATCH = 100;
/** Rows validated between two yields to the event loop (decisions §14: an import never freezes it). */
const YIELD_EVERY = 250;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How far an import is: rows checked, then links written (the CLI draws it). */
export interface ImportProgress {
  phase: 'check' | 'write';
  done: number;
  total: number;
}
export type ImportProgressListener = (progress: ImportProgress) => void;

interface Candidate {
  row: number;
  shortCode: string | null;
  /** Imported links name their place: the domain is always known. */
  link: Omit<NewLinkRow, 'shortCode' | 'custom' | 'domainName'> & { domainName: string };
}

/** The rows' codes grouped by the domain they go to ('' = the service host); rows without a code are left out. */
function codesByDomain(rows: Candidate[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of rows) {
    if (c.shortCode === null) continue;
    const list = out.get(c.link.domainName) ?? [];
    list.push(c.shortCode);
    out.set(c.link.domainName, list);
  }
  return out;
}

/**
 * Migration import: rows are mapped, validated and defaulted one by one (each
 * failure reported with its row number), then written in batches of 100 with
 * one multi-row INSERT each. Conflicts follow `conflictStrategy`.
 */
@Injectable()
export class LinksImportService {
  private readonly logger = new Logger(LinksImportService.name);

  constructor(
    private readonly repo: LinksRepository,
    private readonly writer: LinkWriter,
    private readonly events: LinkEventsService,
    private readonly deadLetters: DeadLetters,
    private readonly domains: LinkDomains,
    private readonly screening: LinkScreening,
    private readonly audit: AuditSink,
  ) {}

  /** Validates the form fields (400 `Validation error` naming them). */
  parseOptions(fields: Record<string, unknown>): ImportOptionsDto {
    const { value, errors } = validateItem(ImportOptionsDto, fields);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return value;
  }

  /** Checks the template and project before the file is read. */
  async prepare(principal: Principal, options: ImportOptionsDto): Promise<{ defaults: TemplateDefaults; templateSlug: string }> {
    const template = await this.repo.findTemplate(principal.organizationId, options.templateId);
    if (!template) throw new TemplateNotFoundError();
    if (options.projectId) {
      const found = await this.repo.existingProjectIds(principal.organizationId, [options.projectId]);
      if (!found.has(options.projectId)) throw new ProjectNotFoundError();
    }
    return { defaults: readTemplateDefaults(template.defaults), templateSlug: template.slug };
  }

  /** Form fields + parsed file → result (options validated first, nothing written on a 4xx). */
  async importUpload(principal: Principal, fields: Record<string, unknown>, table: CsvTable): Promise<ImportResultDto> {
    return this.import(principal, this.parseOptions(fields), table);
  }

  /**
   * The template an import without a `templateId` uses (the CLI): the one with this id or slug,
   * else the organization's oldest; none → 404 `Template not found`.
   */
  async templateIdFor(organizationId: string, ref?: string): Promise<string> {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const template =
      ref !== undefined && uuid.test(ref)
        ? await this.repo.findTemplate(organizationId, ref)
        : await this.repo.findTemplateBySlugOrFirst(organizationId, ref);
    if (!template) throw new TemplateNotFoundError();
    return template.id;
  }

  async import(principal: Principal, options: ImportOptionsDto, table: CsvTable, onProgress?: ImportProgressListener): Promise<ImportResultDto> {
    const { defaults, templateSlug } = await this.prepare(principal, options);
    const plan = planColumns(table.header, options.platform);
    const competitorPlatform = plan.platform?.platform ?? (options.platform !== 'auto' ? options.platform : plan.format === 'branch' ? 'branch' : 'csv');
    const result: ImportResultDto = { imported: 0, skipped: 0, failed: 0, errors: [] };
    const fail = (row: number, message: string) => {
      result.failed++;
      result.errors.push({ row, message });
    };
    const candidates: Candidate[] = [];
    const now = new Date();
    const places = new Map<string, Promise<LinkPlace>>();
    // The form's `domain` is where rows without a domain cell land (their codes kept there).
    const defaultPlace = options.domain === undefined ? SERVICE_HOST_PLACE : await this.domains.resolve(principal.organizationId, options.domain);
    const placeOf = (name: string): Promise<LinkPlace> => {
      const key = name.trim().toLowerCase();
      if (!places.has(key)) places.set(key, this.domains.resolve(principal.organizationId, name));
      return places.get(key)!;
    };
    let validated = 0;
    for (const { row, cells } of table.rows) {
      if (++validated % YIELD_EVERY === 0) {
        onProgress?.({ phase: 'check', done: validated, total: table.rows.length });
        await yieldToEventLoop();
      }
      try {
        const mapped = mapRow(plan, cells, now);
        const unstorable = findUnstorableText({ shortCode: mapped.shortCode, ...mapped.fields });
        if (unstorable !== null) throw new Error(`${unstorable}: ${UNSTORABLE_TEXT_MESSAGE}`);
        if (mapped.shortCode !== null && !IMPORT_CODE.test(mapped.shortCode)) {
          throw new Error('shortCode: Must be 1-64 letters, digits, - or _');
        }
        const { value, errors } = validateItem(ImportLinkFieldsDto, mapped.fields);
        if (Object.keys(errors).length) {
          const first = firstField(errors);
          throw new Error(`${first}: ${errors[first]}`);
        }
        // A `domain` cell puts the row on that verified domain of the organization (decisions §15).
        const place = value.domain === undefined ? defaultPlace : await placeOf(value.domain);
        const values = resolveNewLink(defaults, suppliedFields(value), now);
        // As on create (decisions §22), after the template's defaults: a template's `cloak` counts too.
        refuseCloakOnServiceHost(values.cloak, place.domainName);
        values.passwordHash = (await passwordHashOf(value.password)) ?? null;
        const migrationMetadata: MigrationMetadata = { competitorPlatform, competitorId: mapped.competitorId };
        if (mapped.clicks !== undefined && mapped.clicks !== null) migrationMetadata.clicks = mapped.clicks;
        candidates.push({
          row,
          shortCode: mapped.shortCode,
          link: {
            ...values,
            organizationId: principal.organizationId,
            userId: principal.userId,
            projectId: options.projectId ?? null,
            templateId: options.templateId,
            templateSlug,
            // Without a domain cell, imports land on the service's own host (not the default domain).
            domainId: place.domainId,
            domainName: place.domainName,
            migrationMetadata,
            createdAt: mapped.createdAt ?? null,
          },
        });
      } catch (err) {
        if (err instanceof ValidationError && err.options.validation) {
          const first = firstField(err.options.validation);
          fail(row, `${first}: ${err.options.validation[first]}`);
        } else fail(row, (err as Error).message);
      }
    }
    onProgress?.({ phase: 'check', done: table.rows.length, total: table.rows.length });
    const strategy = options.conflictStrategy ?? 'skip';
    await this.assertQuota(principal, strategy, candidates);
    for (let i = 0; i < candidates.length; i += BATCH) {
      await this.writeBatch(principal, strategy, candidates.slice(i, i + BATCH), result, fail);
      onProgress?.({ phase: 'write', done: Math.min(i + BATCH, candidates.length), total: candidates.length });
    }
    result.errors.sort((a, b) => a.row - b.row);
    const { imported, skipped, failed } = result;
    this.audit.record({ organizationId: principal.organizationId, action: 'links.imported', changes: { platform: competitorPlatform, conflictStrategy: strategy, imported, skipped, failed } });
    return result;
  }

  /**
   * Decisions §14: the plan's link quota is checked before anything is written. Counted are the
   * links the file would create: every valid row without a code, every row with `rename`, and
   * each distinct free code otherwise (taken codes are skipped or overwrite an existing link).
   * The writer still enforces the limit per batch, under its lock, against concurrent creates.
   */
  private async assertQuota(principal: Principal, strategy: 'skip' | 'overwrite' | 'rename', candidates: Candidate[]): Promise<void> {
    const remaining = await this.writer.remainingLinks(principal.organizationId, principal.tier);
    if (remaining === null || candidates.length <= remaining) return;
    let creates = candidates.length;
    if (strategy !== 'rename') {
      let free = 0;
      for (const [domainName, domainCodes] of codesByDomain(candidates.filter((c) => c.shortCode === null || !isReservedCode(c.shortCode)))) {
        const codes = [...new Set(domainCodes)];
        for (let i = 0; i < codes.length; i += 5000) {
          const chunk = codes.slice(i, i + 5000);
          free += chunk.length - (await this.repo.takenShortCodes(chunk, undefined, domainName)).size;
        }
      }
      creates = candidates.filter((c) => c.shortCode === null).length + free;
    }
    if (creates > remaining) {
      throw new LinkLimitExceededError(`the file would create ${creates} links and ${Math.max(0, remaining)} fit`);
    }
  }

  private async writeBatch(
    principal: Principal,
    strategy: 'skip' | 'overwrite' | 'rename',
    candidates: Candidate[],
    result: ImportResultDto,
    fail: (row: number, message: string) => void,
  ): Promise<void> {
    const org = principal.organizationId;
    const batch = await this.screened(candidates, fail);
    // Codes are unique per domain (decisions §15): taken and own codes are looked up per domain, keyed by host and code.
    const taken = new Set<string>();
    const ours = new Map<string, LinkRecord>();
    for (const [domainName, domainCodes] of codesByDomain(batch)) {
      const found = await this.repo.takenShortCodes([...new Set(domainCodes)], undefined, domainName);
      for (const code of found) taken.add(hostCodeKey(domainName, code));
      for (const l of await this.repo.findByShortCodes(org, [...found], undefined, domainName)) ours.set(hostCodeKey(domainName, l.shortCode), l);
    }
    const inserts: Array<{ row: number; link: NewLinkRow }> = [];
    const overwrites: Array<{ row: number; link: LinkRecord; values: Candidate['link'] }> = [];
    const inBatch = new Set<string>();
    for (const c of batch) {
      const code = c.shortCode;
      const key = code === null ? '' : hostCodeKey(c.link.domainName, code);
      const conflict = code !== null && (taken.has(key) || isReservedCode(code) || inBatch.has(key));
      if (!conflict) {
        if (code) inBatch.add(key);
        inserts.push({ row: c.row, link: { ...c.link, shortCode: code ?? generateShortCode(), custom: code !== null } });
      } else if (strategy === 'skip') {
        result.skipped++;
        result.errors.push({ row: c.row, message: `Short code '${code}' is already in use: skipped` });
      } else if (strategy === 'rename') {
        inserts.push({ row: c.row, link: { ...c.link, shortCode: generateShortCode(), custom: false } });
      } else if (ours.has(key) && !inBatch.has(key)) {
        inBatch.add(key);
        overwrites.push({ row: c.row, link: ours.get(key)!, values: c.link });
      } else {
        fail(c.row, `Short code '${code}' is already in use`);
      }
    }

    const created = await this.insert(principal, inserts, fail);
    result.imported += created.length;
    const updated: LinkRecord[] = [];
    for (const o of overwrites) {
      // An overwritten link keeps its own creation date.
      const { organizationId: _o, userId: _u, templateSlug: _s, createdAt: _c, ...values } = o.values;
      const link = await this.repo.updateLink(org, o.link.id, values);
      if (link) updated.push(link);
      else fail(o.row, `Short code '${o.link.shortCode}' is already in use`);
    }
    result.imported += updated.length;
    await this.events.linksChanged('link.created', created);
    await this.events.linksChanged('link.updated', updated);
  }

  /** The rows whose destinations pass screening, with their safety; a blocked row fails with the field and reason. */
  private async screened(batch: Candidate[], fail: (row: number, message: string) => void): Promise<Candidate[]> {
    const safety = await this.screening.screenAll(batch.map((c) => c.link));
    return batch.filter((c, i) => {
      const s = safety[i];
      if (!Array.isArray(s)) return Object.assign(c.link, s);
      const [field, verdict] = s[0];
      fail(c.row, `${field}: Destination blocked: ${verdict.reason}`);
      return false;
    });
  }

  /**
   * One multi-row insert; when it fails as a whole (a rule, or data the database refuses), row
   * by row so each row gets its own outcome. A row the database refuses is reported as failed
   * and kept as a dead letter (decisions §14); any other error ends the import (500).
   */
  private async insert(
    principal: Principal,
    inserts: Array<{ row: number; link: NewLinkRow }>,
    fail: (row: number, message: string) => void,
  ): Promise<LinkRecord[]> {
    if (!inserts.length) return [];
    try {
      return await this.writer.insertAll(principal.organizationId, principal.tier, inserts.map((i) => i.link));
    } catch (err) {
      if (!(err instanceof DomainError) && !isDataError(err)) throw err;
      this.logger.debug({ reason: (err as Error).message }, 'import batch retried row by row');
    }
    const out: LinkRecord[] = [];
    for (const i of inserts) {
      try {
        out.push(...(await this.writer.insertAll(principal.organizationId, principal.tier, [i.link])));
      } catch (err) {
        if (err instanceof DomainError) fail(i.row, err.message);
        else if (isDataError(err)) {
          await this.deadLetters.record('import', { row: i.row, link: i.link }, err);
          fail(i.row, 'Row could not be stored');
        } else throw err;
      }
    }
    return out;
  }
}
