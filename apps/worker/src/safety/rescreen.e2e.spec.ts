import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createRedirectApp } from '@dl/apps/redirect';
import { Role } from '@dl/platform/db';
import {
  closeAll,
  createTestEnv,
  decodeHeader,
  flatten,
  parseMime,
  Receiver,
  ReportFixtures,
  RunningApp,
  SeededOrganization,
  seedOrganization,
  seedWebhook,
  SmtpSink,
  startApp,
  startReceiver,
  startSmtpSink,
  TestEnv,
  waitFor,
} from '@dl/testing';
import { createWorkerApp } from '../app';

jest.setTimeout(120_000);

/**
 * decisions §22 re-screening end to end: a threat feed file changes on disk → the worker blocks the
 * links it now matches within 30 s → the redirect answers the 403 disabled page, the organization's
 * webhook gets `link.flagged` and its Owners and Admins an email; the third such link within 24 h
 * suspends the organization.
 */
describe('re-screening when a threat feed changes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rescreen-e2e-'));
  const feed = join(dir, 'feed.txt');
  let env: TestEnv, smtp: SmtpSink, receiver: Receiver, worker: RunningApp, edge: RunningApp;
  let acme: SeededOrganization, other: SeededOrganization;
  let adminEmail: string;

  const link = (org: SeededOrganization, shortCode: string, originalUrl: string) =>
    env.prisma.link.create({ data: { organizationId: org.organization.id, userId: org.owner.user.id, templateId: org.template.id, shortCode, originalUrl } });
  const visit = (code: string) => request(edge.url).get(`/${code}`).set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0').redirects(0);

  beforeAll(async () => {
    writeFileSync(feed, '# operator feed\nold-threat.test\n');
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    env = await createTestEnv({ THREAT_FEEDS: feed, THREAT_FEEDS_POLL_MS: '500', SMTP_URL: smtp.url, MAIL_FROM: 'Safety <safety@dl.test>', AUTO_SUSPEND_BLOCKED_LINKS: '3' });
    acme = await seedOrganization(env, { name: 'Acme Safety' });
    other = await seedOrganization(env, { name: 'Other Co' });
    const fx = new ReportFixtures(env.prisma);
    adminEmail = (await fx.member(acme.organization.id, Role.ADMIN, 'admin@acme-safety.test', 'Adam Admin')).email;
    await fx.member(acme.organization.id, Role.MEMBER, 'member@acme-safety.test');
    await seedWebhook(env.prisma, acme.organization.id, receiver.url, { events: ['link.flagged'] });
    edge = await startApp(createRedirectApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
  });
  afterAll(async () => {
    await closeAll(worker, edge, receiver, smtp, env);
  });

  it('a feed change: the matched link answers the 403 page within 30 s, link.flagged is delivered, Owners and Admins are emailed', async () => {
    const flagged = await link(acme, 'promo1', 'https://shop.newly-bad.test/offer');
    await link(acme, 'clean1', 'https://good.example/');
    await link(other, 'otherok', 'https://other.example/');
    await visit('promo1').expect(302); // cached by the edge, as a live link would be

    appendFileSync(feed, 'newly-bad.test\n');
    const changedAt = Date.now();
    await waitFor(async () => (await visit('promo1')).status === 403, 30_000, 100);
    const elapsed = Date.now() - changedAt;
    expect(elapsed).toBeLessThan(30_000);
    const page = await visit('promo1').expect(403);
    expect(page.text).toContain('This link has been disabled');
    expect(page.text).toContain('blocklisted domain');
    await visit('clean1').expect(302);
    await visit('otherok').expect(302);

    await waitFor(() => receiver.requests.length >= 1, 30_000);
    expect(JSON.parse(receiver.requests[0].body)).toEqual({ event: 'link.flagged', data: { linkId: flagged.id, shortCode: 'promo1', reason: 'blocklisted domain' } });

    await waitFor(() => smtp.messages.length >= 2, 30_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([acme.owner.user.email, adminEmail].sort());
    const mail = parseMime(smtp.messages[0].raw);
    expect(decodeHeader(mail.headers.subject)).toBe('A link of Acme Safety was blocked: blocklisted domain');
    const text = flatten(mail).find((p) => p.contentType === 'text/plain')!.body.toString('utf8');
    expect(text).toContain('http://sho.rt/promo1: blocklisted domain');
    expect((await env.prisma.organization.findUniqueOrThrow({ where: { id: acme.organization.id } })).suspendedAt).toBeNull();
  });

  it('the third link blocked by re-screening within 24 h suspends the organization pending review', async () => {
    await link(acme, 'promo2', 'https://second.test/a');
    await link(acme, 'promo3', 'https://third.test/b');
    await visit('clean1').expect(302);
    appendFileSync(feed, 'second.test\nthird.test\n');
    await waitFor(async () => (await env.prisma.organization.findUniqueOrThrow({ where: { id: acme.organization.id } })).suspendedAt, 30_000, 100);
    const org = await env.prisma.organization.findUniqueOrThrow({ where: { id: acme.organization.id } });
    expect(org.suspensionReason).toBe('automatic: 3 links blocked by re-screening within 24 h, pending review');
    // Every link of it now answers the disabled page, the clean one too; the other organization is untouched.
    await waitFor(async () => (await visit('clean1')).status === 403, 15_000, 100);
    await visit('otherok').expect(302);
    expect((await env.prisma.organization.findUniqueOrThrow({ where: { id: other.organization.id } })).suspendedAt).toBeNull();
  });
});
