import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { TlsNameBudget } from '@dl/redirect';
import { createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * The on-demand TLS budget (decisions §22): `/tls/ask` says yes to at most
 * `TLS_NEW_NAMES_PER_ORG_PER_DAY` names never seen before per organization and UTC day (3 here);
 * a name said yes to once keeps its yes.
 */
describe('redirect edge: /tls/ask new-name budget', () => {
  let env: TestEnv;
  let edge: RunningApp;
  let a: SeededOrganization, b: SeededOrganization, c: SeededOrganization;

  const ask = async (domain: string) => (await request(edge.url).get(`/tls/ask?domain=${encodeURIComponent(domain)}`)).status;
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `n${i + 1}.${prefix}.test`);

  beforeAll(async () => {
    env = await createTestEnv({ TLS_NEW_NAMES_PER_ORG_PER_DAY: '3' });
    [a, b, c] = await Promise.all([Tier.PRO, Tier.PRO, Tier.UNLIMITED].map((tier) => seedOrganization(env, { tier })));
    const verified = (org: SeededOrganization, domain: string) => ({
      organizationId: org.organization.id,
      domain,
      heldName: domain,
      status: 'verified' as const,
      verifiedAt: new Date(),
      verificationToken: '0123456789abcdef0123456789abcdef',
    });
    await env.prisma.domain.createMany({
      data: [...names('a', 5).map((n) => verified(a, n)), verified(b, 'n1.b.test'), ...names('c', 6).map((n) => verified(c, n))],
    });
    await env.prisma.domain.create({ data: { organizationId: a.organization.id, domain: 'pending.a.test', verificationToken: '0123456789abcdef0123456789abcdef' } });
    edge = await startApp(createRedirectApp, env.config);
  });
  afterAll(async () => {
    await edge?.close();
    await env?.teardown();
  });

  it('200 for the first 3 new names of an organization today, then 404; names seen before stay 200', async () => {
    const [n1, n2, n3, n4, n5] = names('a', 5);
    expect([await ask(n1), await ask(n2), await ask(n3)]).toEqual([200, 200, 200]);
    const refused = await request(edge.url).get(`/tls/ask?domain=${n4}`);
    expect(refused.status).toBe(404);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(await ask(n5)).toBe(404);
    // Seen before (a renewal, a restarted Caddy): still yes, and not counted again.
    expect([await ask(n1), await ask('N2.A.TEST'), await ask(`${n3}.`)]).toEqual([200, 200, 200]);
    // Another organization has its own budget; a pending name never counts.
    expect(await ask('n1.b.test')).toBe(200);
    expect(await ask('pending.a.test')).toBe(404);
    expect(await ask(n4)).toBe(404);
  });

  it('concurrent asks for new names cannot overshoot the budget', async () => {
    const statuses = await Promise.all(names('c', 6).map(ask));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 404)).toHaveLength(3);
  });

  it('the next UTC day brings a new budget', async () => {
    const budget = edge.app.get(TlsNameBudget);
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    expect(await budget.allow(a.organization.id, 'n4.a.test', tomorrow)).toBe(true);
    // Said yes to once: yes today too.
    expect(await ask('n4.a.test')).toBe(200);
    expect(await ask('n5.a.test')).toBe(404);
  });
});
