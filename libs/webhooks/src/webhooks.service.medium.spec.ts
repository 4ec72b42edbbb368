import { INestApplicationContext } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { closeAll, errorBodyOf, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { WebhooksModule } from './webhooks.module';
import { WebhookCaller, WebhooksService } from './webhooks.service';

describe(WebhooksService.name, () => {
  let env: TestEnv, app: INestApplicationContext, webhooks: WebhooksService, acme: SeededOrganization, other: SeededOrganization;
  const caller = (o: SeededOrganization): WebhookCaller => ({ organizationId: o.organization.id, tier: o.organization.tier });
  const notFound = { error: 'Not Found', message: 'Webhook not found', statusCode: 404 };

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([WebhooksModule]));
    webhooks = app.get(WebhooksService);
    [acme, other] = [await seedOrganization(env, { tier: Tier.PRO }), await seedOrganization(env)];
  });
  afterAll(() => closeAll(app, env));

  it('creates a webhook with a secret shown once, lists it without the secret, updates and removes it', async () => {
    const created = await webhooks.create(caller(acme), { url: 'https://hooks.example.com/a', events: ['link.clicked'] });
    expect(created).toMatchObject({ url: 'https://hooks.example.com/a', events: ['link.clicked'], projectId: null, isActive: true, disabledAt: null });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await webhooks.list(caller(acme));
    expect(listed.map((w) => w.id)).toEqual([created.id]);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(await webhooks.update(caller(acme), created.id, { isActive: false })).toMatchObject({ id: created.id, isActive: false });
    expect(await webhooks.remove(caller(acme), created.id)).toEqual({ success: true });
    expect(await errorBodyOf(webhooks.get(caller(acme), created.id))).toEqual(notFound);
  });

  it("another organization's webhook is missing: get, update, remove, test and deliveries answer 404", async () => {
    const mine = await webhooks.create(caller(acme), { url: 'https://hooks.example.com/private', events: ['link.clicked'] });
    expect(await errorBodyOf(webhooks.get(caller(other), mine.id))).toEqual(notFound);
    expect(await errorBodyOf(webhooks.update(caller(other), mine.id, { isActive: false }))).toEqual(notFound);
    expect(await errorBodyOf(webhooks.remove(caller(other), mine.id))).toEqual(notFound);
    expect(await errorBodyOf(webhooks.sendTest(caller(other), mine.id))).toEqual(notFound);
    expect(await errorBodyOf(webhooks.deliveries(caller(other), mine.id, {}))).toEqual(notFound);
    expect(await webhooks.list(caller(other))).toEqual([]);
    expect(await webhooks.get(caller(acme), mine.id)).toMatchObject({ isActive: true });
  });

  it('refuses the sixth webhook on FREE with 403 and the exact message, and an update with nothing in it (400)', async () => {
    for (let i = 0; i < 5; i++) await webhooks.create(caller(other), { url: `https://hooks.example.com/free-${i}`, events: ['link.clicked'] });
    expect(await errorBodyOf(webhooks.create(caller(other), { url: 'https://hooks.example.com/free-5', events: ['link.clicked'] }))).toEqual({
      error: 'Forbidden',
      message: 'Webhook limit reached for your plan',
      statusCode: 403,
    });
    expect(await webhooks.list(caller(other))).toHaveLength(5);
    const [first] = await webhooks.list(caller(other));
    expect(await errorBodyOf(webhooks.update(caller(other), first.id, {}))).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });

  it('stores and answers a webhook URL as its WHATWG href, on create and on update (decisions §14)', async () => {
    const created = await webhooks.create(caller(acme), { url: 'https://example.com/hooks/é', events: ['link.created'] });
    expect(created.url).toBe('https://example.com/hooks/%C3%A9');
    expect(await webhooks.update(caller(acme), created.id, { url: 'https://bücher.example/h' })).toMatchObject({ url: 'https://xn--bcher-kva.example/h' });
    expect((await env.prisma.webhook.findUniqueOrThrow({ where: { id: created.id } })).url).toBe('https://xn--bcher-kva.example/h');
  });
});
