import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickPipeline } from '@dl/clicks';
import { appEnv, ClickFixtures, eventually, rawClick, RunningApp, SdkFixtures, startApp, TestEnv, USER_AGENTS } from '@dl/testing';
import { backoffDelay, DeeplinkClient, DeeplinkError, flush, init, install, shutdown, trackEvent, trackRevenue } from './index';

const IP_HEADER = 'x-test-client-ip';

describe('SDK client (against the real ingest app and worker)', () => {
  let env: TestEnv, ingest: RunningApp, worker: RunningApp, orgId: string;
  let app: { id: string; token: string };
  let clicks: ClickFixtures;

  /** The real fetch, with the test's client IP (what a device behind a proxy would have). */
  const fetchFrom = (ip: string): typeof fetch => (input, initArg) =>
    fetch(input, { ...initArg, headers: { ...(initArg?.headers as Record<string, string>), [IP_HEADER]: ip } });

  beforeAll(async () => {
    ({ env, server: ingest } = await appEnv(createIngestApp, { TRUSTED_CLIENT_IP_HEADER: IP_HEADER }));
    worker = await startApp(createWorkerApp, env.config);
    clicks = new ClickFixtures(env.prisma);
    orgId = (await clicks.organization()).id;
    app = await new SdkFixtures(env.prisma).app(orgId);
  });

  afterAll(async () => {
    await shutdown();
    await ingest?.close();
    await worker?.close();
    await env?.teardown();
  });

  it('init → install answers the deferred deep link; trackEvent / trackRevenue are batched and stored attributed', async () => {
    const link = await clicks.link(orgId);
    await env.prisma.link.update({ where: { id: link.id }, data: { deepLinkPath: '/welcome', deepLinkParameters: { ref: 'sdk' } } });
    await worker.app.get(ClickPipeline).store([
      rawClick({ id: link.id, organizationId: orgId }, { ip: '203.0.113.21', userAgent: USER_AGENTS.iPhone, acceptLanguage: 'de-DE,de;q=0.9' }),
    ]);
    init({
      appToken: app.token,
      baseUrl: ingest.url,
      device: { platform: 'ios', osVersion: '17.4.1', language: 'de-DE', appVersion: '1.0.0', deviceModel: 'iPhone15,2' },
      fetch: fetchFrom('203.0.113.21'),
      flushIntervalMs: 0,
      batchSize: 3,
    });
    const attribution = await install();
    expect(attribution).toEqual({ attributed: true, linkId: link.id, shortCode: link.shortCode, deepLinkPath: '/welcome', deepLinkParameters: { ref: 'sdk' }, matchType: 'fingerprint' });

    const ids = [trackEvent('tutorial_done', { step: 3 }), trackEvent('level_up'), trackRevenue(4.99, 'usd', { sku: 'gems' }), trackEvent('share')];
    await flush();
    const stored = await eventually(async () => {
      const rows = await env.prisma.inAppEvent.findMany({ where: { appId: app.id } });
      return rows.length === 4 ? rows : null;
    });
    expect(stored.every((r) => r.attributed && r.linkId === link.id)).toBe(true);
    const revenue = stored.find((r) => r.eventName === 'revenue')!;
    expect(revenue.eventData).toEqual({ sku: 'gems', revenue: 4.99, currency: 'USD' });
    expect(Number(revenue.revenue)).toBe(4.99);
    expect(new Set(ids).size).toBe(4);
  });

  it('retries network failures with backoff and stores each event once', async () => {
    let failures = 2;
    let calls = 0;
    const flaky: typeof fetch = (input, initArg) => {
      calls++;
      if (failures-- > 0) return Promise.reject(new TypeError('fetch failed'));
      return fetch(input, initArg);
    };
    const client = new DeeplinkClient({ appToken: app.token, baseUrl: ingest.url, device: { platform: 'android', osVersion: '14' }, fetch: flaky, flushIntervalMs: 0, retryBaseMs: 10 });
    client.trackEvent('retry_me');
    client.trackEvent('retry_me');
    await client.flush();
    expect(calls).toBe(3);
    expect(client.pending).toBe(0);
    const installId = await client.installId();
    await eventually(async () => (await env.prisma.inAppEvent.count({ where: { installId } })) === 2);
    await client.shutdown();
  });

  it('keeps events queued when the service stays unreachable, and reports the error', async () => {
    const errors: DeeplinkError[] = [];
    const client = new DeeplinkClient({
      appToken: app.token,
      baseUrl: 'http://127.0.0.1:9',
      device: { platform: 'ios', osVersion: '17' },
      flushIntervalMs: 0,
      maxAttempts: 2,
      retryBaseMs: 5,
      onError: (e) => errors.push(e),
    });
    client.trackEvent('offline');
    await client.flush();
    expect(client.pending).toBe(1);
    expect(errors[0]).toBeInstanceOf(DeeplinkError);
    expect(errors[0].status).toBeNull();
    await client.shutdown().catch(() => undefined);
  });

  it('refuses bad input before sending, and surfaces the service 401', async () => {
    const client = new DeeplinkClient({ appToken: app.token, baseUrl: ingest.url, device: { platform: 'ios', osVersion: '17' }, flushIntervalMs: 0 });
    expect(() => client.trackEvent('x'.repeat(101))).toThrow('eventName must be 1-100 characters');
    expect(() => client.trackRevenue(Number.NaN, 'USD')).toThrow('amount must be a finite number');
    expect(() => client.trackEvent('big', { blob: 'x'.repeat(33 * 1024) })).toThrow('properties must be at most 32 KB of JSON');
    const wrong = new DeeplinkClient({ appToken: `dla_${'1'.repeat(48)}`, baseUrl: ingest.url, device: { platform: 'ios', osVersion: '17' }, flushIntervalMs: 0 });
    await expect(wrong.install()).rejects.toMatchObject({ status: 401, message: 'Invalid app token' });
    await client.shutdown();
    await wrong.shutdown();
  });

  it('drops only the events the service refuses from a batch', async () => {
    const errors: DeeplinkError[] = [];
    const client = new DeeplinkClient({ appToken: app.token, baseUrl: ingest.url, device: { platform: 'ios', osVersion: '17' }, flushIntervalMs: 0, onError: (e) => errors.push(e) });
    client.trackEvent('good_one');
    client.trackEvent('revenue', { revenue: 1, currency: 'XXQ' });
    await client.flush();
    const installId = await client.installId();
    await eventually(async () => (await env.prisma.inAppEvent.count({ where: { installId, eventName: 'good_one' } })) === 1);
    expect(errors[0]?.status).toBe(400);
    expect(errors[0]?.body?.validation).toEqual({ 'properties.currency': 'Must be an ISO 4217 currency code' });
    await client.shutdown();
  });

  it('backs off exponentially with jitter, or as the server says', () => {
    for (let a = 1; a <= 5; a++) {
      const d = backoffDelay(a, 100);
      expect(d).toBeGreaterThanOrEqual((100 * 2 ** (a - 1)) / 2);
      expect(d).toBeLessThanOrEqual(100 * 2 ** (a - 1));
    }
    expect(backoffDelay(1, 100, 7)).toBe(7000);
  });
});
