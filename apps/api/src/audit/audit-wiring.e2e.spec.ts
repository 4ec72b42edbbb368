import { totpCode } from '@dl/auth';
import { clientAs, createTestEnv, seedOrganization, startApp, startDnsServer, useSuite } from '@dl/testing';
// The operator CLI runs in-process, as tools/cli's own specs run it (the CLI is a tool, not a library).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { runCommand } from '../../../../tools/cli/run';
import { createApiApp } from '../app';

interface Entry {
  action: string;
  actor: { type: string; id: string | null; name: string | null };
  targetType: string;
  targetId: string | null;
  changes: Record<string, unknown> | null;
}

/** decisions §25: the state changes of links, domains, webhooks, 2FA, settings and the abuse desk reach the audit log. */
describe('audit log: what each area records', () => {
  const t = useSuite(async (own) => {
    const dns = own(await startDnsServer());
    const env = own(await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address }));
    return { dns, env, org: await seedOrganization(env, { tier: 'BUSINESS' }), api: own(await startApp(createApiApp, env.config)) };
  });

  const as = (token: string) => clientAs(t.api.url, token);
  const owner = () => as(t.org.owner.jwt);
  const key = () => as(t.org.owner.apiKey);
  const userActor = () => ({ type: 'user', id: t.org.owner.user.id, name: t.org.owner.user.name });
  const keyActor = { type: 'apiKey', id: '', name: 'seed key' };
  /** Entries are written in batches (≤ 50 ms): the newest first, once `n` match. */
  const entries = async (query: string, n: number): Promise<Entry[]> => {
    for (let i = 0; i < 100; i++) {
      const res = await owner().get(`/api/audit-log?${query}`).expect(200);
      if (res.body.entries.length >= n) return res.body.entries;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`fewer than ${n} entries for ${query}`);
  };
  const brief = (list: Entry[]) => list.map((e) => [e.action, e.changes]);

  it('links: create, update and delete by key, one entry each with the changed fields (password redacted); bulk is one entry with the ids', async () => {
    keyActor.id = t.org.owner.apiKeyId;
    const link = (await key().post('/api/links', { templateId: t.org.template.id, originalUrl: 'https://example.com/a', customCode: 'audited1' }).expect(201)).body;
    await key().put(`/api/links/${link.id}`, { title: 'Spring', password: 'hunter22' }).expect(200);
    await key().delete(`/api/links/${link.id}`).expect(200);
    const list = await entries(`targetId=${link.id}`, 3);
    expect(brief(list)).toEqual([
      ['link.deleted', { shortCode: 'audited1', domain: null }],
      ['link.updated', { title: 'Spring', password: '[redacted]' }],
      ['link.created', { templateId: t.org.template.id, originalUrl: 'https://example.com/a', customCode: 'audited1', shortCode: 'audited1', domain: null }],
    ]);
    for (const e of list) expect(e).toMatchObject({ actor: keyActor, targetType: 'link', targetId: link.id });

    const bulk = (await key().post('/api/links/bulk-create', { links: [1, 2].map((i) => ({ templateId: t.org.template.id, originalUrl: `https://example.com/b${i}` })) }).expect(201)).body;
    const ids = bulk.links.map((l: { id: string }) => l.id);
    await key().post('/api/links/bulk-update', { updates: ids.map((id: string) => ({ id, data: { isActive: false } })) }).expect(200);
    await key().post('/api/links/bulk-delete', { ids }).expect(200);
    const bulkEntries = await entries('action=links.bulk_created', 1);
    expect(bulkEntries[0]).toMatchObject({ actor: keyActor, targetId: null, changes: { count: 2, ids } });
    expect((await entries('action=links.bulk_updated', 1))[0].changes).toEqual({ count: 2, updates: ids.map((id: string) => ({ id, changes: { isActive: false } })) });
    expect((await entries('action=links.bulk_deleted', 1))[0].changes).toEqual({ count: 2, ids });
  });

  it('domains: create, verify (status change), update and delete', async () => {
    const d = (await owner().post('/api/domains', { domain: 'go.audit.test' }).expect(201)).body;
    t.dns.setTxt(d.verification.name, [d.verification.value]);
    expect((await owner().post(`/api/domains/${d.id}/verify`).expect(200)).body.status).toBe('verified');
    await owner().patch(`/api/domains/${d.id}`, { notFoundUrl: 'https://example.com/404' }).expect(200);
    await owner().delete(`/api/domains/${d.id}`).expect(200);
    const list = await entries(`targetId=${d.id}`, 4);
    expect(brief(list)).toEqual([
      ['domain.deleted', { domain: 'go.audit.test' }],
      ['domain.updated', { notFoundUrl: 'https://example.com/404' }],
      ['domain.verified', { status: { from: 'pending', to: 'verified' }, source: 'manual' }],
      ['domain.created', { domain: 'go.audit.test' }],
    ]);
    for (const e of list) expect(e).toMatchObject({ actor: userActor(), targetType: 'domain' });
  });

  it('webhooks: create, update and delete, never the secret', async () => {
    const hook = (await owner().post('/api/webhooks', { url: 'https://hooks.example.com/in', events: ['link.created'] }).expect(201)).body;
    await owner().patch(`/api/webhooks/${hook.id}`, { events: ['link.created', 'link.deleted'] }).expect(200);
    await owner().delete(`/api/webhooks/${hook.id}`).expect(200);
    const list = await entries(`targetId=${hook.id}`, 3);
    expect(brief(list)).toEqual([
      ['webhook.deleted', null],
      ['webhook.updated', { events: ['link.created', 'link.deleted'] }],
      ['webhook.created', { url: 'https://hooks.example.com/in', events: ['link.created'], projectId: null }],
    ]);
    for (const e of list) expect(e).toMatchObject({ actor: userActor(), targetType: 'webhook' });
    expect(JSON.stringify(list)).not.toContain(hook.secret);
  });

  it('2FA on and a rename of the organization are recorded with the user as actor', async () => {
    const setup = await owner().post('/auth/2fa/setup').expect(200);
    await owner().post('/auth/2fa/enable', { code: totpCode(setup.body.secret, Date.now()) }).expect(200);
    const [enabled] = await entries('action=two_factor.enabled', 1);
    expect(enabled).toMatchObject({ actor: userActor(), targetType: 'user', targetId: t.org.owner.user.id, changes: null });

    await owner().patch('/api/organization', { name: 'Renamed Inc' }).expect(200);
    const [renamed] = await entries('action=organization.updated', 1);
    expect(renamed).toMatchObject({ actor: userActor(), targetType: 'organization', targetId: t.org.organization.id, changes: { name: 'Renamed Inc' } });
  });

  it('exports and integration settings: the audit CSV export is itself recorded; a Stripe integration secret never is', async () => {
    await owner().get('/api/audit-log/export?action=link.created').expect(200);
    expect((await entries('action=export.created', 1))[0]).toMatchObject({ actor: userActor(), targetType: 'export', changes: { kind: 'audit_log', action: 'link.created' } });
    await owner().put('/api/integrations/stripe', { webhookSecret: 'whsec_audit_secret' }).expect(200);
    await owner().delete('/api/integrations/stripe').expect(200);
    const list = await entries('targetId=stripe', 2);
    expect(brief(list)).toEqual([
      ['integration.deleted', null],
      ['integration.updated', { webhookSecret: '[redacted]' }],
    ]);
  });

  it('the operator CLI suspends and unsuspends as the system; the chain still verifies', async () => {
    const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL } = t.env.config;
    const cli = (...argv: string[]) => runCommand(argv, { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL }, { stdout: () => undefined, stderr: () => undefined });
    expect(await cli('org:suspend', t.org.organization.id, '--reason', 'phishing wave')).toBe(0);
    expect(await cli('org:unsuspend', t.org.organization.id)).toBe(0);
    const list = await entries(`targetId=${t.org.organization.id}&action=organization.suspended`, 1);
    expect(list[0]).toMatchObject({ actor: { type: 'system', id: null }, targetType: 'organization', changes: { reason: 'phishing wave' } });
    expect((await entries('action=organization.unsuspended', 1))[0]).toMatchObject({ actor: { type: 'system', id: null }, changes: { reason: null } });
    expect((await owner().get('/api/audit-log/verify').expect(200)).body).toEqual({ valid: true, entries: expect.any(Number), firstBrokenId: null });
  });
});
