import request from 'supertest';
import { createWorkerApp } from '@dl/apps/worker';
import { appEnv, ClickFixtures, closeAll, eventually, RunningApp, SdkFixtures, startApp, TestEnv } from '@dl/testing';
import { createIngestApp } from '../app';

const FORBIDDEN = { error: 'Forbidden', message: 'Origin not allowed for this site', statusCode: 403 };

describe('pixel events: Origin/Referer on the site domain, value bounded (decisions §14)', () => {
  let env: TestEnv, ingest: RunningApp, worker: RunningApp;
  let site: { id: string; siteKey: string };

  beforeAll(async () => {
    ({ env, server: ingest } = await appEnv(createIngestApp));
    worker = await startApp(createWorkerApp, env.config);
    const org = await new ClickFixtures(env.prisma).organization();
    site = await new SdkFixtures(env.prisma).site(org.id, 'shop.example.com');
  });
  afterAll(() => closeAll(worker, ingest, env));

  const send = (headers: Record<string, string>, body: Record<string, unknown> = {}) => {
    let req = request(ingest.url).post('/api/pixel/v1/event');
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    return req.send({ siteKey: site.siteKey, type: 'pageview', url: 'https://shop.example.com/p', ...body });
  };

  it('accepts the site domain and its subdomains (Origin first, else Referer), refuses any other page with 403', async () => {
    const accepted: Array<Record<string, string>> = [
      { origin: 'https://shop.example.com' },
      { origin: 'https://www.shop.example.com:8443' },
      { origin: 'HTTPS://SHOP.EXAMPLE.COM' },
      { referer: 'https://checkout.shop.example.com/thanks?x=1' },
      {}, // no browser page (a server-side call): nothing to check
    ];
    for (const headers of accepted) {
      const res = await send(headers, { url: `https://shop.example.com/ok/${accepted.indexOf(headers)}` });
      expect({ headers, status: res.status, body: res.body }).toEqual({ headers, status: 202, body: { accepted: true } });
    }
    const refused: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'https://example.com' }, // the parent domain is not the site
      { origin: 'https://shop.example.com.evil.example' },
      { origin: 'https://evilshop.example.com' },
      { origin: 'null' },
      { referer: 'https://evil.example/shop.example.com' },
      // Origin wins over a Referer that names the site.
      { origin: 'https://evil.example', referer: 'https://shop.example.com/' },
    ];
    for (const headers of refused) {
      const res = await send(headers, { url: 'https://shop.example.com/refused' });
      expect({ headers, status: res.status, body: res.body }).toEqual({ headers, status: 403, body: FORBIDDEN });
      // CORS stays open so the page can read the refusal.
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    // Accepted events are stored; refused ones never are.
    await eventually(async () => (await env.prisma.pixelEvent.count({ where: { siteId: site.id } })) === accepted.length);
    expect(await env.prisma.pixelEvent.count({ where: { siteId: site.id, url: 'https://shop.example.com/refused' } })).toBe(0);
  });

  it('bounds a conversion value to 0..1,000,000 (400 Validation error naming value)', async () => {
    const origin = { origin: 'https://shop.example.com' };
    await send(origin, { type: 'conversion', value: 1_000_000, currency: 'EUR', url: 'https://shop.example.com/max' }).expect(202);
    for (const value of [1_000_000.01, 1e300, -1]) {
      const res = await send(origin, { type: 'conversion', value, currency: 'EUR' }).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: 'Validation error',
        statusCode: 400,
        validation: { value: 'Must be between 0 and 1000000' },
      });
    }
    const stored = await eventually(() => env.prisma.pixelEvent.findFirst({ where: { siteId: site.id, url: 'https://shop.example.com/max' } }));
    expect(Number(stored.value)).toBe(1_000_000);
  });
});
