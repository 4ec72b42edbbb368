import { randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickFixtures, createTestEnv, eventually, RunningApp, SdkFixtures, startApp, TestEnv } from '@dl/testing';

/**
 * Pixel conversions and SDK revenue are sales with their source, and conversions fan out as
 * `lead.created` / `sale.created` webhooks (decisions §23): ingest → worker → receiver, api → worker → receiver.
 */
describe('conversions from the pixel, the SDK and the webhooks they send', () => {
  let env: TestEnv;
  let api: RunningApp;
  let ingest: RunningApp;
  let worker: RunningApp;
  let receiver: Server;
  const received: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }> = [];

  beforeAll(async () => {
    env = await createTestEnv({ WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', RATE_LIMIT_ENABLED: 'false' });
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(raw) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    [api, ingest, worker] = await Promise.all([startApp(createApiApp, env.config), startApp(createIngestApp, env.config), startApp(createWorkerApp, env.config)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([api?.close(), ingest?.close(), worker?.close()]);
    await new Promise((r) => receiver?.close(r));
    await env?.teardown();
  });

  it('stores a pixel conversion and an SDK revenue event as sales of their link, once each', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization();
    const link = await fx.link(org.id);
    const sdk = new SdkFixtures(env.prisma);
    const site = await sdk.site(org.id);
    const pixelClick = await fx.click({ id: link.id, organizationId: org.id });
    const pixel = (body: object) =>
      request(ingest.url).post('/api/pixel/v1/event').set('Origin', 'https://shop.example.com').send({ siteKey: site.siteKey, url: 'https://shop.example.com/thanks', ...body }).expect(202);
    await pixel({ type: 'conversion', clickId: pixelClick.id, value: 49.99, currency: 'USD' });
    await pixel({ type: 'conversion', value: 10, currency: 'USD' }); // no click: not a link's sale
    await pixel({ type: 'pageview', clickId: pixelClick.id });

    const app = await sdk.app(org.id);
    const appClick = await fx.click({ id: link.id, organizationId: org.id });
    const installId = randomUUID();
    const sdkCall = (path: string, body: object) => request(ingest.url).post(`/api/sdk/v1/${path}`).set('Authorization', `Bearer ${app.token}`).send(body);
    await sdkCall('install', { installId, platform: 'ios', osVersion: '17.4', clickId: appClick.id }).expect(200);
    await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
    await sdkCall('event', { installId, eventName: 'revenue', properties: { revenue: 1200, currency: 'JPY' } }).expect(202);

    const sales = await eventually(async () => {
      const rows = await env.prisma.sale.findMany({ where: { organizationId: org.id }, orderBy: { source: 'asc' } });
      return rows.length >= 2 ? rows : null;
    }, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await env.prisma.sale.count({ where: { organizationId: org.id } })).toBe(2);
    expect(sales.map((s) => [s.source, s.linkId, Number(s.amount), s.currency, s.customerId])).toEqual([
      ['pixel', link.id, 4999, 'USD', null],
      ['sdk', link.id, 1200, 'JPY', null],
    ]);
  }, 40_000);

  it('sends lead.created and sale.created, shaped as the tracking answers', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization();
    const { key } = await fx.apiKey(org.id);
    const link = await fx.link(org.id);
    const click = await fx.click({ id: link.id, organizationId: org.id });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await env.prisma.webhook.create({ data: { organizationId: org.id, url, events: ['lead.created', 'sale.created'], secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=' } });
    const track = (path: string, body: object) => request(api.url).post(`/api/track/${path}`).set('Authorization', `Bearer ${key}`).send(body);
    const lead = (await track('lead', { clickId: click.id, eventName: 'Sign up', customerExternalId: 'hook_1' }).expect(201)).body;
    await track('lead', { clickId: click.id, eventName: 'Sign up', customerExternalId: 'hook_1' }).expect(200);
    const sale = (await track('sale', { customerExternalId: 'hook_1', amount: 900, currency: 'EUR', invoiceId: 'in_hook' }).expect(201)).body;
    await track('sale', { customerExternalId: 'hook_1', amount: 900, currency: 'EUR', invoiceId: 'in_hook' }).expect(200);

    await eventually(async () => received.length >= 2, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    const bodies = received.map((r) => r.body).sort((a, b) => String(a.event).localeCompare(String(b.event)));
    expect(bodies).toEqual([
      { event: 'lead.created', data: { ...lead, linkId: link.id } },
      { event: 'sale.created', data: { customer: { id: lead.customer.id, externalId: 'hook_1' }, sale: sale.sale, linkId: link.id } },
    ]);
    expect(received.map((r) => r.headers['webhook-id']).sort()).toEqual([`lead.created.${lead.lead.id}`, `sale.created.${sale.sale.id}`]);
  }, 40_000);
});
