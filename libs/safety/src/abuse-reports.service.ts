import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { APP_CONFIG, AppConfig, hostCodeKey, serviceHosts } from '@dl/platform/config';
import { TooManyRequestsError, ValidationError } from '@dl/platform/http';
import { linkInvalidationChannel, RedisService } from '@dl/platform/redis';
import { AbuseReportRecord, AbuseReportsRepository } from './abuse-reports.repository';
import { SuspensionsService } from './suspensions.service';
import { isHttpScheme, parseUrl } from '@dl/platform/validation';

export const ABUSE_CATEGORIES = ['phishing', 'malware', 'spam', 'illegal', 'other'] as const;
export type AbuseCategory = (typeof ABUSE_CATEGORIES)[number];
export const NOT_OUR_LINK = 'Must be a short link of this service';
/** Reports an hour per client IP (decisions §22). */
export const REPORTS_PER_HOUR_PER_IP = 10;

export interface AbuseReportInput {
  url: string;
  category: AbuseCategory;
  details?: string;
  reporterEmail?: string;
}

export type ResolveAction = 'dismiss' | 'block-link' | 'suspend-org';
const RESOLVED_STATUS: Record<ResolveAction, string> = { dismiss: 'dismissed', 'block-link': 'link-blocked', 'suspend-org': 'org-suspended' };

/** Abuse reports from visitors and their resolution by an operator (decisions §22). */
@Injectable()
export class AbuseReportsService {
  private readonly ownHosts: ReadonlySet<string>;

  constructor(
    private readonly repo: AbuseReportsRepository,
    private readonly suspensions: SuspensionsService,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly audit: AuditSink,
  ) {
    this.ownHosts = serviceHosts(config);
  }

  /** Files a report of one of our short links; 400 for any other URL, 429 past 10 an hour per IP. */
  async file(input: AbuseReportInput, ip: string | null): Promise<{ id: string }> {
    await this.countReport(ip);
    const link = await this.linkOf(input.url);
    if (!link) throw new ValidationError({ url: NOT_OUR_LINK });
    const report = await this.repo.create({
      url: new URL(input.url).href,
      linkId: link.id,
      organizationId: link.organizationId,
      category: input.category,
      details: input.details ?? null,
      reporterEmail: input.reporterEmail ?? null,
    });
    return { id: report.id };
  }

  list(status?: string): Promise<AbuseReportRecord[]> {
    return this.repo.list(status);
  }

  /** Resolves a report: dismiss it, block its link, or suspend its link's organization. */
  async resolve(id: string, action: ResolveAction, note: string | null): Promise<AbuseReportRecord | null> {
    const report = await this.repo.find(id);
    if (!report) return null;
    if (action === 'block-link' && report.linkId) {
      const link = await this.repo.blockLink(report.linkId, `reported: ${report.category}`);
      if (link) await this.redis.client.publish(linkInvalidationChannel(this.redis), hostCodeKey(link.domainName, link.shortCode));
    }
    if (action === 'suspend-org' && report.organizationId) {
      await this.suspensions.suspend(report.organizationId, note ?? `abuse report ${report.id}: ${report.category}`);
    }
    if (report.organizationId) this.audit.record({ organizationId: report.organizationId, action: 'abuse.resolved', targetId: id, changes: { action, note, linkId: report.linkId } });
    return this.repo.resolve(id, RESOLVED_STATUS[action], note);
  }

  /** The link a URL names: a service host or a branded domain, and an existing code. */
  private async linkOf(raw: string): Promise<{ id: string; organizationId: string } | null> {
    const url = parseUrl(raw);
    if (!url || !isHttpScheme(url)) return null;
    const host = url.hostname.replace(/\.$/, '');
    const own = this.ownHosts.has(host);
    if (!own && !(await this.repo.isLinkHost(host))) return null;
    // Codes are plain ASCII: an escaped path is no code of ours (and is never decoded, so never throws).
    const code = url.pathname.slice(1).replace(/(\/report|\+)$/, '');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return null;
    return this.repo.findLink(own ? '' : host, code);
  }

  private async countReport(ip: string | null): Promise<void> {
    const key = this.redis.key('abuse', 'reports-per-ip', ip ?? 'unknown');
    let n = 0;
    let ttl = 3600;
    try {
      const res = (await this.redis.client.multi().incr(key).expire(key, 3600, 'NX').ttl(key).exec()) as Array<[Error | null, number]>;
      n = res[0][1];
      ttl = res[2][1];
    } catch {
      return; // Redis down: not limited (the form is cheap to serve; nothing here is costly).
    }
    if (n > REPORTS_PER_HOUR_PER_IP) throw new TooManyRequestsError(Math.max(1, ttl));
  }
}
