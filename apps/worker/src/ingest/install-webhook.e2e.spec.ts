import { randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickPipeline } from '@dl/clicks';
import { ClickFixtures, createTestEnv, eventually, rawClick, RunningApp, SdkFixtures, startApp, TestEnv, USER_AGENTS } from '@dl/testing';

const IP_HEADER = 'x-test-client-ip';

describe('install.attributed webhook (ingest → worker → receiver)', () => {
  let env: TestEnv;
  let ingest: RunningApp;
  let worker: RunningApp;
  let receiver: Server;
  const received: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }> = [];

  beforeAll(async () => {
    env = await createTestEnv({ TRUSTED_CLIENT_IP_HEADER: IP_HEADER });
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(raw) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    ingest = await startApp(createIngestApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
  });

  afterAll(async () => {
    await ingest?.close();
    await worker?.close();
    await new Promise((r) => receiver?.close(r));
    await env?.teardown();
  });

  it('sends one install.attributed event per attributed install, none for an unattributed one', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization();
    const link = await fx.link(org.id);
    const app = await new SdkFixtures(env.prisma).app(org.id);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await env.prisma.webhook.create({ data: { organizationId: org.id, url, events: ['install.attributed'], secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=' } });
    const raw = rawClick({ id: link.id, organizationId: org.id }, { ip: '203.0.113.90', userAgent: USER_AGENTS.androidPhone, acceptLanguage: 'es-ES' });
    await worker.app.get(ClickPipeline).store([raw]);

    const installId = randomUUID();
    const body = { installId, platform: 'android', osVersion: '14', language: 'es-MX', deviceModel: 'Pixel 8' };
    const send = (b: object, ip: string) =>
      request(ingest.url).post('/api/sdk/v1/install').set('Authorization', `Bearer ${app.token}`).set(IP_HEADER, ip).send(b).expect(200);
    await send(body, '203.0.113.90');
    await send(body, '203.0.113.90');
    await send({ ...body, installId: randomUUID() }, '198.51.100.200');

    const hit = await eventually(async () => received[0]);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(1);
    const install = await env.prisma.install.findFirstOrThrow({ where: { installId } });
    expect(hit.body).toEqual({
      event: 'install.attributed',
      install: {
        id: install.id,
        installId,
        appId: app.id,
        platform: 'android',
        osVersion: '14',
        deviceModel: 'Pixel 8',
        appVersion: null,
        matchType: 'fingerprint',
        ambiguous: false,
        clickId: raw.id,
        attributedAt: install.attributedAt!.toISOString(),
        link: { id: link.id, shortCode: link.shortCode },
      },
    });
    expect(hit.headers['webhook-id']).toBe(`install.attributed.${install.id}`);
    expect(hit.headers['webhook-signature']).toMatch(/^v1,/);
  });
});
