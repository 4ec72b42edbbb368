import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createRedirectApp } from '@dl/apps/redirect';
import { totpCode } from '@dl/auth';
import { addMember, authHeader, createTestEnv, flatten, parseMime, RunningApp, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const bad = (message: string, validation?: Record<string, string>) => ({
  error: 'Bad Request',
  message,
  statusCode: 400,
  ...(validation ? { validation } : {}),
});
const forbidden = (message: string) => ({ error: 'Forbidden', message, statusCode: 403 });

describe('organization settings and scheduled deletion (decisions §20)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let edge: RunningApp;
  let outbox: string;
  const http = () => request(api.url);

  beforeAll(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'dl-org-outbox-'));
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', MAIL_OUTBOX_DIR: outbox });
    api = await startApp(createApiApp, env.config);
    edge = await startApp(createRedirectApp, env.config);
  });
  afterAll(async () => {
    await edge?.close();
    await api?.close();
    await env?.teardown();
    await rm(outbox, { recursive: true, force: true });
  });

  async function mailsTo(address: string): Promise<string[]> {
    const files = (await readdir(outbox)).filter((f) => f.includes(address.replace(/[^A-Za-z0-9@._-]+/g, '_')));
    return Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
  }

  it('GET answers the organization; every role and API keys may read it', async () => {
    const org = await seedOrganization(env);
    const viewer = await addMember(env, org.organization.id, 'VIEWER');
    const res = await http().get('/api/organization').set(authHeader(viewer.jwt)).expect(200);
    expect(res.body).toEqual({
      id: org.organization.id,
      name: org.organization.name,
      slug: org.organization.slug,
      tier: 'FREE',
      requireTwoFactor: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      deletionScheduledAt: null,
    });
    expect((await http().get('/api/organization').set(authHeader(org.owner.apiKey)).expect(200)).body.id).toBe(org.organization.id);
  });

  it('PATCH renames and changes the slug (Admin); a taken slug → 409; a bad one → 400; nothing → 400', async () => {
    const org = await seedOrganization(env);
    const other = await seedOrganization(env);
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    const slug = `renamed-${Date.now()}`;
    const res = await http().patch('/api/organization').set(authHeader(admin.jwt)).send({ name: '  Renamed Co ', slug }).expect(200);
    expect(res.body).toMatchObject({ id: org.organization.id, name: 'Renamed Co', slug });

    const taken = await http().patch('/api/organization').set(authHeader(admin.jwt)).send({ slug: other.organization.slug }).expect(409);
    expect(taken.body).toEqual({ error: 'Conflict', message: `Slug '${other.organization.slug}' is already in use`, statusCode: 409 });
    const rule = 'Must be 3-48 lowercase letters, digits or dashes, starting and ending with a letter or digit';
    for (const s of ['Upper', 'a', '-lead', 'trail-', 'sp ace', 'x'.repeat(49), 42]) {
      const r = await http().patch('/api/organization').set(authHeader(admin.jwt)).send({ slug: s }).expect(400);
      expect(r.body).toEqual(bad('Validation error', { slug: rule }));
    }
    expect((await http().patch('/api/organization').set(authHeader(admin.jwt)).send({}).expect(400)).body).toEqual(bad('No updates provided'));
    expect((await http().get('/api/organization').set(authHeader(admin.jwt)).expect(200)).body).toMatchObject({ name: 'Renamed Co', slug });
  });

  it('PATCH: a Member → 403; an Admin may not set requireTwoFactor; an Owner without 2FA of their own → 400', async () => {
    const org = await seedOrganization(env);
    const member = await addMember(env, org.organization.id, 'MEMBER');
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    expect((await http().patch('/api/organization').set(authHeader(member.jwt)).send({ name: 'X' }).expect(403)).body).toEqual(
      forbidden('Your role does not allow this action'),
    );
    expect((await http().patch('/api/organization').set(authHeader(admin.jwt)).send({ requireTwoFactor: true }).expect(403)).body).toEqual(
      forbidden('Your role does not allow this action'),
    );
    const own = await http().patch('/api/organization').set(authHeader(org.owner.jwt)).send({ requireTwoFactor: true }).expect(400);
    expect(own.body).toEqual(bad('Validation error', { requireTwoFactor: 'Turn on two-factor authentication for your own account first' }));
    expect((await http().get('/api/organization').set(authHeader(org.owner.jwt)).expect(200)).body.requireTwoFactor).toBe(false);
  });

  it('an Owner with 2FA requires it: a member without it gets 403 at once, API keys do not', async () => {
    const org = await seedOrganization(env);
    const member = await addMember(env, org.organization.id, 'MEMBER');
    await http().get('/api/links').set(authHeader(member.jwt)).expect(200);
    const setup = await http().post('/auth/2fa/setup').set(authHeader(org.owner.jwt)).expect(200);
    await http().post('/auth/2fa/enable').set(authHeader(org.owner.jwt)).send({ code: totpCode(setup.body.secret, Date.now()) }).expect(200);
    const res = await http().patch('/api/organization').set(authHeader(org.owner.jwt)).send({ requireTwoFactor: true }).expect(200);
    expect(res.body.requireTwoFactor).toBe(true);
    expect((await http().get('/api/links').set(authHeader(member.jwt)).expect(403)).body).toEqual(
      forbidden('Two-factor authentication required by your organization'),
    );
    await http().get('/api/links').set(authHeader(member.apiKey)).expect(200);
    await http().get('/api/links').set(authHeader(org.owner.jwt)).expect(200);
  });

  it('DELETE without the right confirm → 400 naming confirm, nothing scheduled; a non-Owner → 403', async () => {
    const org = await seedOrganization(env);
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    for (const body of [{}, { confirm: 'wrong' }, { confirm: org.organization.slug.toUpperCase() }, { confirm: 7 }]) {
      const res = await http().delete('/api/organization').set(authHeader(org.owner.jwt)).send(body).expect(400);
      expect(res.body).toEqual(bad('Validation error', { confirm: "Must be the organization's slug" }));
    }
    await http().delete('/api/organization').set(authHeader(admin.jwt)).send({ confirm: org.organization.slug }).expect(403);
    expect((await env.prisma.organization.findUniqueOrThrow({ where: { id: org.organization.id } })).deletionScheduledAt).toBeNull();
    await http().get('/api/links').set(authHeader(org.owner.jwt)).expect(200);
  });

  it('DELETE with the slug: 202 in 7 days, Owners emailed, links 404, everything 403 but GET and restore; restore undoes it', async () => {
    const org = await seedOrganization(env);
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    const code = `del${Date.now().toString(36)}`;
    await http().post('/api/links').set(authHeader(org.owner.jwt)).send({ templateId: org.template.id, originalUrl: 'https://example.com/kept', customCode: code }).expect(201);
    await request(edge.url).get(`/${code}`).expect(302);

    const before = Date.now();
    const res = await http().delete('/api/organization').set(authHeader(org.owner.jwt)).send({ confirm: org.organization.slug }).expect(202);
    expect(res.body).toEqual({ deletionScheduledAt: expect.any(String) });
    const at = Date.parse(res.body.deletionScheduledAt);
    expect(at - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
    expect(at - before).toBeLessThan(7 * 86_400_000 + 60_000);

    const scheduled = forbidden('Organization scheduled for deletion');
    expect((await http().get('/api/links').set(authHeader(org.owner.jwt)).expect(403)).body).toEqual(scheduled);
    expect((await http().get('/api/links').set(authHeader(org.owner.apiKey)).expect(403)).body).toEqual(scheduled);
    expect((await http().patch('/api/organization').set(authHeader(org.owner.jwt)).send({ name: 'n' }).expect(403)).body).toEqual(scheduled);
    expect((await http().get('/auth/me').set(authHeader(org.owner.jwt)).expect(403)).body).toEqual(scheduled);
    expect((await http().get('/api/organization').set(authHeader(org.owner.jwt)).expect(200)).body.deletionScheduledAt).toBe(res.body.deletionScheduledAt);
    expect((await http().get('/api/organization').set(authHeader(admin.jwt)).expect(200)).body.deletionScheduledAt).toBe(res.body.deletionScheduledAt);
    // Only an Owner restores.
    expect((await http().post('/api/organization/restore').set(authHeader(admin.jwt)).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    await waitFor(async () => (await request(edge.url).get(`/${code}`)).status === 404);

    // Asking again keeps the first date (and sends no second email).
    const again = await http().delete('/api/organization').set(authHeader(org.owner.jwt)).send({ confirm: org.organization.slug });
    expect(again.status).toBe(403);
    const mails = await mailsTo(org.owner.user.email);
    expect(mails).toHaveLength(1);
    const mime = parseMime(mails[0]);
    expect(mime.headers.subject).toContain('will be deleted on');
    const html = flatten(mime).find((p) => p.headers['content-type']?.startsWith('text/html'));
    expect(html?.body.toString('utf8')).toContain('Deletion scheduled for');

    const restored = await http().post('/api/organization/restore').set(authHeader(org.owner.jwt)).expect(200);
    expect(restored.body).toMatchObject({ id: org.organization.id, deletionScheduledAt: null });
    await http().get('/api/links').set(authHeader(org.owner.jwt)).expect(200);
    await waitFor(async () => (await request(edge.url).get(`/${code}`)).status === 302);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
