/**
 * QR codes with a logo through the api: render time, many at once, the api's event-loop delay (docs/performance.md).
 *   node tools/scripts/run.js bench/qr-logo.ts [--parallel 50] [--size 512] [--sequential 10]
 */
import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { PNG } from 'pngjs';
import { createApiApp } from '@dl/apps/api';
import { closeAll, createTestEnv, seedOrganization, startApp } from '@dl/testing';
import { arg, log, median, percentile, print, round, runBench } from './kit';

/** p50, p99 and max of a `monitorEventLoopDelay` histogram, in ms. */
const delayMs = (h: IntervalHistogram) => ({ p50: round(h.percentile(50) / 1e6), p99: round(h.percentile(99) / 1e6), max: round(h.max / 1e6) });

runBench(async () => {
  const [parallel, sequential, size] = [arg('parallel', 50), arg('sequential', 10), arg('size', 512)];
  const env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
  const server = await startApp(createApiApp, env.config);
  try {
    const org = await seedOrganization(env);
    const auth = { Authorization: `Bearer ${org.owner.apiKey}` };
    const created = await fetch(`${server.url}/api/links`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId: org.template.id, originalUrl: 'https://example.com/bench' }),
    });
    const link = (await created.json()) as { id: string };
    const logo = new PNG({ width: 256, height: 256 });
    for (let i = 0; i < 256 * 256; i++) logo.data.set([(i * 7) % 256, 40, 200, 255], i * 4);
    const form = new FormData();
    form.set('logo', new Blob([Uint8Array.from(PNG.sync.write(logo))], { type: 'image/png' }), 'logo.png');
    const uploaded = await fetch(`${server.url}/api/links/${link.id}/qr/logo`, { method: 'PUT', headers: auth, body: form });
    if (uploaded.status !== 200) throw new Error(`logo upload answered ${uploaded.status}`);

    let variant = 0;
    const render = async () => {
      const fg = (++variant).toString(16).padStart(6, '0');
      const started = performance.now();
      const res = await fetch(`${server.url}/api/links/${link.id}/qr?size=${size}&dots=rounded&corners=dot&fg=${fg}`, { headers: auth });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`render answered ${res.status}`);
      return performance.now() - started;
    };
    // The loop's delay with nothing to do: on a shared host the scheduler alone delays it.
    const idle = monitorEventLoopDelay({ resolution: 10 });
    idle.enable();
    await new Promise((r) => setTimeout(r, 3000));
    idle.disable();
    log('sequential renders', { sequential });
    const alone: number[] = [];
    for (let i = 0; i < sequential; i++) alone.push(await render());

    log('parallel renders', { parallel });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const times = await Promise.all(Array.from({ length: parallel }, render));
    const wall = performance.now() - started;
    delay.disable();
    print({
      bench: 'qr-logo',
      size,
      renderMsAlone: { p50: round(median(alone)), max: round(Math.max(...alone)) },
      parallel,
      wallMs: round(wall),
      latencyMs: { p50: round(median(times)), p95: round(percentile(times, 95)), max: round(Math.max(...times)) },
      idleEventLoopDelayMs: delayMs(idle),
      eventLoopDelayMs: delayMs(delay),
    });
  } finally {
    await closeAll(server, env);
  }
});
