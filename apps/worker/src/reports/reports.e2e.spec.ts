import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { PNG } from 'pngjs';
import { Role, Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { CHART_CID, Clock } from '@dl/reports';
import { createTestEnv, decodeHeader, flatten, parseMime, ReportFixtures, RunningApp, SmtpSink, startApp, startSmtpSink, TestEnv } from '@dl/testing';
import { createWorkerApp } from '../app';
import { MONTHLY_REPORTS_CRON, MONTHLY_REPORTS_SCHEDULER_ID } from './reports.scheduler';

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const at = (iso: string) => new Date(iso);
const RUN_AT = at('2026-12-01T00:30:00Z');
jest.setTimeout(120_000);

describe('monthly reports in the worker', () => {
  let env: TestEnv;
  let smtp: SmtpSink;
  let worker: RunningApp;
  let reportsQueue: Queue;
  let webhooksQueue: Queue;
  let fx: ReportFixtures;
  let orgId: string;
  let quietOrgId: string;

  const startWorker = async () => {
    const app = await startApp(createWorkerApp, env.config);
    jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => RUN_AT);
    return app;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    env = await createTestEnv({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Reports <reports@dl.test>' });
    fx = new ReportFixtures(env.prisma);
    orgId = (await fx.organization({ name: 'Acme Inc', tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') })).id;
    await fx.member(orgId, Role.OWNER, 'owner@acme.test', 'Olivia Owner');
    await fx.member(orgId, Role.ADMIN, 'admin@acme.test', 'Adam Admin');
    await fx.member(orgId, Role.MEMBER, 'member@acme.test');
    await fx.member(orgId, Role.VIEWER, 'viewer@acme.test');
    const link = await fx.link(orgId, { shortCode: 'spring01', title: 'Spring Sale', createdAt: at('2026-10-01T00:00:00Z') });
    for (let d = 1; d <= 30; d++) {
      await fx.rollup(orgId, link.id, `2026-11-${String(d).padStart(2, '0')}`, 10 + ((d * 7) % 13));
    }
    // A workspace created after November does not get a November report.
    quietOrgId = (await fx.organization({ name: 'Late Co', createdAt: at('2026-12-01T00:10:00Z') })).id;
    reportsQueue = new Queue(Queues.reports, bullOptions(env.config));
    webhooksQueue = new Queue(Queues.webhooks, bullOptions(env.config));
    worker = await startWorker();
  });

  afterAll(async () => {
    await reportsQueue?.close();
    await webhooksQueue?.close();
    await worker?.app.close().catch(() => undefined);
    await smtp?.close();
    await env?.teardown();
  });

  it('the run stores the previous month once, emails Owners and Admins once, and announces report.generated', async () => {
    // The schedule fires twice (two workers, a retry): an empty period means "the month before now".
    await reportsQueue.add('reports.monthly-run', { period: '' });
    await reportsQueue.add('reports.monthly-run', { period: '' });
    await waitFor('the emails', async () => smtp.messages.length >= 2);
    const row = await waitFor('emailed_at', () =>
      env.prisma.monthlyReport.findFirst({ where: { organizationId: orgId, period: '2026-11', emailedAt: { not: null } } }),
    );
    await waitFor('the run to finish', async () => (await reportsQueue.getJobCounts('active', 'waiting')).waiting === 0 && (await reportsQueue.getJobCounts('active')).active === 0);
    await new Promise((r) => setTimeout(r, 300));

    expect(await env.prisma.monthlyReport.count()).toBe(1);
    expect(row.period).toBe('2026-11');
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(['admin@acme.test', 'owner@acme.test']);

    const mail = parseMime(smtp.messages.find((m) => m.to[0] === 'owner@acme.test')!.raw);
    expect(decodeHeader(mail.headers.subject)).toBe('Acme Inc: your November 2026 report');
    expect(mail.headers.from).toBe('Reports <reports@dl.test>');
    expect(mail.headers.to).toBe('Olivia Owner <owner@acme.test>');
    const parts = flatten(mail);
    const text = parts.find((p) => p.contentType === 'text/plain')!.body.toString('utf8');
    const html = parts.find((p) => p.contentType === 'text/html')!.body.toString('utf8');
    const image = parts.find((p) => p.contentType === 'image/png')!;
    const body = row.body as { kpis: { clicks: { value: number } } };
    const clicks = body.kpis.clicks.value.toLocaleString('en-US');
    expect(text).toContain(`Acme Inc · November 2026 report`);
    expect(text).toContain(`Clicks: ${clicks}`);
    expect(text).toContain('Spring Sale (http://sho.rt/spring01)');
    expect(html).toContain('<!DOCTYPE html>');
    expect(html).toContain(`src="cid:${CHART_CID}"`);
    expect(html).toContain('Spring Sale');
    expect(html).toMatch(/style="[^"]+"/);
    expect(image.headers['content-id']).toBe(`<${CHART_CID}>`);
    expect(image.headers['content-disposition']).toMatch(/^inline/);
    const png = PNG.sync.read(image.body);
    expect([png.width, png.height]).toEqual([1120, 320]);

    const webhookJobs = await webhooksQueue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
    const events = webhookJobs.filter((j) => j.name === 'webhook.event' && j.data.type === 'report.generated');
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(new Set(events.map((j) => j.data.eventId))).toEqual(new Set([`report.generated.${orgId}.2026-11`]));
    expect(events[0].data).toMatchObject({
      organizationId: orgId,
      projectId: null,
      data: { period: '2026-11', label: 'November 2026', url: '/api/reports/monthly/2026-11', clicks: body.kpis.clicks.value },
    });
    expect(await env.prisma.monthlyReport.count({ where: { organizationId: quietOrgId } })).toBe(0);
  });

  it('a restarted worker running the month again sends nothing new and keeps the stored copy', async () => {
    const before = await env.prisma.monthlyReport.findFirstOrThrow({ where: { organizationId: orgId } });
    await worker.close();
    worker = await startWorker();
    await reportsQueue.add('reports.monthly-run', { period: '2026-11' });
    await reportsQueue.add('reports.monthly', { organizationId: orgId, period: '2026-11', email: true });
    await waitFor('the jobs to finish', async () => {
      const c = await reportsQueue.getJobCounts('active', 'waiting');
      return c.active === 0 && c.waiting === 0;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages).toHaveLength(2);
    const after = await env.prisma.monthlyReport.findFirstOrThrow({ where: { organizationId: orgId } });
    expect(after.generatedAt).toEqual(before.generatedAt);
    expect(after.emailedAt).toEqual(before.emailedAt);
  });

  it('registers the repeatable run on the 1st at 00:30 UTC when schedules are enabled', async () => {
    const scheduled = await startApp(createWorkerApp, env.withOverrides({ WORKER_SCHEDULES_ENABLED: 'true' }));
    try {
      const schedulers = await reportsQueue.getJobSchedulers();
      expect(schedulers).toEqual([
        expect.objectContaining({ key: MONTHLY_REPORTS_SCHEDULER_ID, pattern: MONTHLY_REPORTS_CRON, tz: 'UTC', name: 'reports.monthly-run' }),
      ]);
      const next = new Date(schedulers[0].next!);
      expect([next.getUTCDate(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 0, 30]);
    } finally {
      await reportsQueue.removeJobScheduler(MONTHLY_REPORTS_SCHEDULER_ID);
      await scheduled.close();
    }
  });

  it('writes .eml files into the outbox when SMTP_URL is not set', async () => {
    // Only the outbox worker consumes now.
    await worker.close();
    const outbox = await mkdtemp(join(tmpdir(), 'dl-outbox-'));
    const config = env.withOverrides({ SMTP_URL: '', MAIL_OUTBOX_DIR: outbox });
    const other = await startApp(createWorkerApp, config);
    jest.spyOn(other.app.get(Clock), 'now').mockImplementation(() => RUN_AT);
    try {
      const org = (await fx.organization({ name: 'Outbox Ltd', createdAt: at('2026-01-01T00:00:00Z') })).id;
      await fx.member(org, Role.OWNER, 'boss@outbox.test');
      await reportsQueue.add('reports.monthly', { organizationId: org, period: '2026-10', email: true });
      const files = await waitFor('an .eml file', async () => {
        const f = (await readdir(outbox)).filter((n) => n.endsWith('.eml'));
        return f.length ? f : null;
      });
      expect(files).toHaveLength(1);
      const mail = parseMime(await readFile(join(outbox, files[0]), 'utf8'));
      expect(decodeHeader(mail.headers.subject)).toBe('Outbox Ltd: your October 2026 report');
      expect(mail.headers.to).toBe('Owner User <boss@outbox.test>');
      expect(flatten(mail).map((p) => p.contentType)).toEqual(
        expect.arrayContaining(['text/plain', 'text/html', 'image/png']),
      );
      await waitFor('emailed_at', () =>
        env.prisma.monthlyReport.findFirst({ where: { organizationId: org, period: '2026-10', emailedAt: { not: null } } }),
      );
    } finally {
      await other.close();
      await rm(outbox, { recursive: true, force: true });
    }
  });
});
