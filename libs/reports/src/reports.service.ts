import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';
import { RedisService } from '@dl/platform/redis';
import { Clock } from './clock';
import {
  addMonths, comparePeriods, DAY_MS, formatPeriod, parsePeriod, Period, periodEnd, periodLabel, periodOf,
} from './period';
import { ReportBuilder } from './report.builder';
import { MonthlyReportDto, MonthlyReportListDto, MonthlyReportListItemDto } from './report-response.dto';
import {
  ReportOwnerOnlyError, InvalidPeriodError, PeriodBeforeWorkspaceError, PeriodInFutureError, PeriodLiveError,
  PeriodNotRetainedError,
} from './reports.errors';
import { OrganizationRow, ReportsRepository } from './reports.repository';

/** Months older than this many days are not retained (spec "Limits"). */
export const REPORT_RETENTION_DAYS = 400;

export interface ReportCaller {
  organizationId: string;
  role: Role;
}

export interface StoredReport {
  report: MonthlyReportDto;
  /** True when this call generated and stored it. */
  created: boolean;
  emailedAt: Date | null;
}

const LIVE_CACHE_REDIS_TIMEOUT_MS = 250;

/**
 * Monthly reports: a finished month is generated once and stored; the live month is built on
 * read and kept in Redis for REPORT_LIVE_CACHE_SECONDS (60) per organization and month
 * (decisions §14), concurrent misses of one process sharing one build.
 */
@Injectable()
export class ReportsService {
  private readonly logger = new Logger(ReportsService.name);
  private readonly liveBuilds = new Map<string, Promise<MonthlyReportDto>>();
  private readonly liveCacheSeconds: number;

  constructor(
    private readonly repo: ReportsRepository,
    private readonly builder: ReportBuilder,
    private readonly clock: Clock,
    @Optional() private readonly redis?: RedisService,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.liveCacheSeconds = config?.REPORT_LIVE_CACHE_SECONDS ?? 60;
  }

  async list(caller: ReportCaller): Promise<MonthlyReportListDto> {
    const now = this.clock.now();
    const current = periodOf(now);
    const oldest = this.oldestRetained(now);
    const stored = await this.repo.listStored(caller.organizationId, formatPeriod(oldest));
    const reports: MonthlyReportListItemDto[] = [
      { period: formatPeriod(current), label: periodLabel(current), generatedAt: null, live: true },
    ];
    for (const row of stored) {
      const p = parsePeriod(row.period);
      if (!p || comparePeriods(p, current) >= 0) continue;
      reports.push({ period: row.period, label: periodLabel(p), generatedAt: row.generatedAt.toISOString(), live: false });
    }
    return { reports };
  }

  /** GET /api/reports/monthly/:period, errors in the order of decisions §11. */
  async get(caller: ReportCaller, periodParam: string, regenerate: boolean): Promise<MonthlyReportDto> {
    const now = this.clock.now();
    const period = parsePeriod(periodParam);
    if (!period) throw new InvalidPeriodError();
    const current = periodOf(now);
    const cmp = comparePeriods(period, current);
    if (cmp > 0) throw new PeriodInFutureError();
    if (comparePeriods(period, this.oldestRetained(now)) < 0) throw new PeriodNotRetainedError();
    const org = await this.repo.findOrganization(caller.organizationId);
    if (!org || periodEnd(period) <= org.createdAt) throw new PeriodBeforeWorkspaceError();
    if (regenerate) {
      if (cmp === 0) throw new PeriodLiveError();
      if (caller.role !== Role.OWNER) throw new ReportOwnerOnlyError();
      return this.regenerate(org, period, now);
    }
    if (cmp === 0) return this.live(org, period, now);
    return (await this.ensureStored(org, period, now)).report;
  }

  /**
   * The stored report of a finished month, generating it when absent. Concurrent
   * first reads each build, one INSERT wins (ON CONFLICT DO NOTHING) and everyone
   * returns the stored row.
   */
  async ensureStored(org: OrganizationRow, period: Period, now = this.clock.now()): Promise<StoredReport> {
    const key = formatPeriod(period);
    const existing = await this.repo.findStored(org.id, key);
    if (existing) return { report: existing.body as MonthlyReportDto, created: false, emailedAt: existing.emailedAt };
    const started = Date.now();
    const report = await this.builder.build(org, period, now, false);
    const created = await this.repo.insertIfAbsent(org.id, key, report, new Date(report.generatedAt));
    const stored = await this.repo.findStored(org.id, key);
    if (!stored) throw new Error(`monthly report ${key} vanished after insert`);
    if (created) this.logger.log({ organizationId: org.id, period: key, ms: Date.now() - started }, 'monthly report stored');
    return { report: stored.body as MonthlyReportDto, created, emailedAt: stored.emailedAt };
  }

  /** For the worker: the stored report of an organization's finished month. */
  async ensureStoredFor(organizationId: string, periodKey: string): Promise<StoredReport | null> {
    const period = parsePeriod(periodKey);
    const org = await this.repo.findOrganization(organizationId);
    if (!period || !org || periodEnd(period) <= org.createdAt) return null;
    if (comparePeriods(period, periodOf(this.clock.now())) >= 0) return null;
    return this.ensureStored(org, period);
  }

  /**
   * The live month from the cache, else built (one build per organization and month at a time in
   * this process) and cached. Redis slow or down: built without the cache, never an error.
   */
  private async live(org: OrganizationRow, period: Period, now: Date): Promise<MonthlyReportDto> {
    if (!this.redis || this.liveCacheSeconds <= 0) return this.builder.build(org, period, now, true);
    const key = this.redis.key('report', 'live', org.id, formatPeriod(period));
    const cached = await this.redisCall(() => this.redis!.client.get(key));
    if (cached) return JSON.parse(cached) as MonthlyReportDto;
    const inFlight = this.liveBuilds.get(key);
    if (inFlight) return inFlight;
    const build = (async () => {
      const report = await this.builder.build(org, period, now, true);
      await this.redisCall(() => this.redis!.client.set(key, JSON.stringify(report), 'EX', this.liveCacheSeconds));
      return report;
    })();
    this.liveBuilds.set(key, build);
    try {
      return await build;
    } finally {
      this.liveBuilds.delete(key);
    }
  }

  private async redisCall<T>(call: () => Promise<T>): Promise<T | null> {
    if (!this.redis?.isReady) return null;
    try {
      return await withTimeout(call(), LIVE_CACHE_REDIS_TIMEOUT_MS);
    } catch {
      return null;
    }
  }

  private async regenerate(org: OrganizationRow, period: Period, now: Date): Promise<MonthlyReportDto> {
    const report = await this.builder.build(org, period, now, false);
    await this.repo.upsert(org.id, formatPeriod(period), report, new Date(report.generatedAt));
    this.logger.log({ organizationId: org.id, period: formatPeriod(period) }, 'monthly report regenerated');
    return report;
  }

  /** The oldest month still retained: its end is at most 400 days ago. */
  private oldestRetained(now: Date): Period {
    const limit = new Date(now.getTime() - REPORT_RETENTION_DAYS * DAY_MS);
    // The month containing `limit` ends after it, so it is retained.
    return periodOf(limit);
  }

  /** The month before the clock's current month (the scheduled run's default). */
  previousPeriod(): string {
    return formatPeriod(addMonths(periodOf(this.clock.now()), -1));
  }
}
