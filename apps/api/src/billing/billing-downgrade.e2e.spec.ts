import { randomBytes } from 'node:crypto';
import { createRedirectApp } from '@dl/apps/redirect';
import { RunningApp, seedOrganization, startApp, stripeEvent } from '@dl/testing';
import { billingWorld, BillingWorld } from './test/billing-world';

describe('a downgrade deletes nothing', () => {
  let w: BillingWorld;
  let redirect: RunningApp;
  beforeAll(async () => {
    w = await billingWorld();
    redirect = await startApp(createRedirectApp, w.env.config);
  });
  afterAll(async () => {
    await redirect?.close();
    await w?.close();
  });

  it('a PRO organization with 2,000 links falls to FREE (1,000): every link keeps answering and stays editable; creating more is refused', async () => {
    const org = await seedOrganization(w.env, { name: 'Many Links' });
    expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' })).status).toBe(200);
    const session = [...w.stripe.checkoutSessions.values()].find((s) => s.client_reference_id === org.organization.id)!;
    const done = w.stripe.completeCheckout(session.id as string);
    const t = Math.floor(Date.now() / 1000);
    expect((await w.deliver(stripeEvent('customer.subscription.created', done.subscription, { created: t }))).status).toBe(200);
    expect((await w.call('GET', '/api/billing', org.owner.jwt)).body.tier).toBe('PRO');

    const codes = Array.from({ length: 2000 }, (_, i) => `dg${i}${randomBytes(3).toString('hex')}`);
    await w.env.prisma.link.createMany({
      data: codes.map((shortCode, i) => ({
        organizationId: org.organization.id,
        userId: org.owner.user.id,
        templateId: org.template.id,
        shortCode,
        originalUrl: `https://example.com/p/${i}`,
      })),
    });

    const deleted = { ...done.subscription, status: 'canceled', ended_at: t + 1 };
    expect((await w.deliver(stripeEvent('customer.subscription.deleted', deleted, { created: t + 1 }))).status).toBe(200);
    expect((await w.call('GET', '/api/billing', org.owner.jwt)).body).toMatchObject({ tier: 'FREE', status: 'canceled' });
    expect(await w.env.prisma.link.count({ where: { organizationId: org.organization.id } })).toBe(2000);

    // Every one of the 2,000 redirects, 25 at a time.
    const statuses = new Map<number, number>();
    for (let i = 0; i < codes.length; i += 25) {
      const batch = await Promise.all(codes.slice(i, i + 25).map(async (code) => (await fetch(`${redirect.url}/${code}`, { redirect: 'manual' })).status));
      for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 302: 2000 });

    const usage = await w.call('GET', '/api/usage', org.owner.jwt);
    expect(usage.body).toMatchObject({ tier: 'FREE', links: { used: 2000, limit: 1000 } });
    const one = await w.env.prisma.link.findFirst({ where: { organizationId: org.organization.id, shortCode: codes[1999] }, select: { id: true } });
    expect((await w.call('GET', `/api/links/${one!.id}`, org.owner.jwt)).status).toBe(200);
    expect((await w.call('PUT', `/api/links/${one!.id}`, org.owner.jwt, { title: 'Still mine' })).body).toMatchObject({ title: 'Still mine' });
    expect(await w.call('POST', '/api/links', org.owner.jwt, { templateId: org.template.id, originalUrl: 'https://example.com/new' })).toMatchObject({
      status: 403,
      body: { error: 'Forbidden', message: 'Link limit exceeded for your organization', statusCode: 403 },
    });
  });
});
