import { runInNewContext } from 'node:vm';
import request from 'supertest';
import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickPipeline } from '@dl/clicks';
import { appEnv, ClickFixtures, closeAll, eventually, rawClick, RunningApp, SdkFixtures, startApp, TestEnv } from '@dl/testing';

/** Runs the served pixel script in a bare page context whose fetch is the real one. */
function loadPage(script: string, scriptSrc: string, siteKey: string, href: string, storage: Map<string, string>) {
  const sent: Array<Promise<unknown>> = [];
  const window: Record<string, unknown> = {
    location: { href },
    localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v) },
    fetch: (url: string, init: RequestInit) => {
      const p = fetch(url, init);
      sent.push(p);
      return p;
    },
  };
  const document = { currentScript: { src: scriptSrc, getAttribute: () => siteKey }, referrer: 'https://news.example.org/', querySelectorAll: () => [] };
  runInNewContext(script, { window, document, URL, JSON, Date });
  return { dlPixel: window.dlPixel as { conversion(o: { value: number; currency: string }): Promise<unknown> }, sent };
}

describe('pixel script (served by the ingest app)', () => {
  let env: TestEnv, ingest: RunningApp, worker: RunningApp;

  beforeAll(async () => {
    ({ env, server: ingest } = await appEnv(createIngestApp));
    worker = await startApp(createWorkerApp, env.config);
  });

  afterAll(() => closeAll(ingest, worker, env));

  it('records a page view with dl_click, remembers it, and ties a later conversion to the link', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization();
    const link = await fx.link(org.id);
    const site = await new SdkFixtures(env.prisma).site(org.id);
    const raw = rawClick({ id: link.id, organizationId: org.id });
    await worker.app.get(ClickPipeline).store([raw]);

    const res = await request(ingest.url).get('/api/pixel/v1/script.js').expect(200);
    const src = `${ingest.url}/api/pixel/v1/script.js`;
    const storage = new Map<string, string>();
    const landing = loadPage(res.text, src, site.siteKey, `https://shop.example.com/?dl_click=${raw.id}`, storage);
    await Promise.all(landing.sent);
    // A later page without the parameter: the stored click id is used.
    const checkout = loadPage(res.text, src, site.siteKey, 'https://shop.example.com/checkout', storage);
    await checkout.dlPixel.conversion({ value: 25, currency: 'eur' });
    await Promise.all(checkout.sent);

    const events = await eventually(async () => {
      const rows = await env.prisma.pixelEvent.findMany({ where: { siteId: site.id }, orderBy: { occurredAt: 'asc' } });
      return rows.length === 3 ? rows : null;
    });
    expect(events.map((e) => [e.type, e.clickId, e.linkId])).toEqual([
      ['pageview', raw.id, link.id],
      ['pageview', raw.id, link.id],
      ['conversion', raw.id, link.id],
    ]);
    expect(events[0]).toMatchObject({ referrer: 'https://news.example.org/', url: `https://shop.example.com/?dl_click=${raw.id}` });
    expect(events[2]).toMatchObject({ currency: 'EUR' });
    expect(Number(events[2].value)).toBe(25);
  });

  it('ignores a malformed dl_click', async () => {
    const org = await new ClickFixtures(env.prisma).organization();
    const site = await new SdkFixtures(env.prisma).site(org.id);
    const res = await request(ingest.url).get('/api/pixel/v1/script.js').expect(200);
    const page = loadPage(res.text, `${ingest.url}/api/pixel/v1/script.js`, site.siteKey, 'https://a.example.com/?dl_click=not-a-uuid', new Map());
    await Promise.all(page.sent);
    const ev = await eventually(() => env.prisma.pixelEvent.findFirst({ where: { siteId: site.id } }));
    expect(ev.clickId).toBeNull();
  });
});
