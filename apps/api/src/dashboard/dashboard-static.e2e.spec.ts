import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestEnv, startApp, tempDirOf, useSuite } from '@dl/testing';
import { createApiApp } from '../app';

// The dashboard's build served at /app: files as they are, hashed assets cached for a
// year, the SPA's index.html (never cached) for every other path under /app.
describe('dashboard at /app', () => {
  const t = useSuite(async (own) => {
    const dir = tempDirOf(own, 'dl-dashboard-');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/app/assets/index-Ab12Cd34.js"></script>');
    writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("dashboard")');
    writeFileSync(join(dir, 'assets', 'index-Ef56Gh78.css'), 'body{}');
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    writeFileSync(join(tmpdir(), 'dl-outside.txt'), 'secret');
    const env = own(await createTestEnv());
    return {
      env,
      server: own(await startApp((c) => createApiApp(c, { dashboardDir: dir }), env.config)),
      unbuilt: own(await startApp((c) => createApiApp(c, { dashboardDir: join(dir, 'missing') }), env.config)),
    };
  });

  it('serves index.html at /app and /app/, not cached, with a strict CSP', async () => {
    for (const path of ['/app', '/app/']) {
      const res = await request(t.server.url).get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.text).toContain('<div id="root">');
    }
  });

  it('answers index.html for client-side routes (SPA fallback)', async () => {
    for (const path of ['/app/links', '/app/links/3f1c2b9e-0000-4000-8000-000000000000/edit', '/app/reports/2026-10', '/app/index.html']) {
      const res = await request(t.server.url).get(path).expect(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toContain('<div id="root">');
    }
  });

  it('serves hashed assets with a one-year immutable cache', async () => {
    const js = await request(t.server.url).get('/app/assets/index-Ab12Cd34.js').expect(200);
    expect(js.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text).toBe('console.log("dashboard")');
    const css = await request(t.server.url).get('/app/assets/index-Ef56Gh78.css').expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves other files of the build without a long cache', async () => {
    const res = await request(t.server.url).get('/app/robots.txt').expect(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('Disallow');
  });

  it('answers 404 for a missing asset instead of the HTML shell', async () => {
    const res = await request(t.server.url).get('/app/assets/index-old.js').expect(404);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).not.toContain('<div id="root">');
  });

  it('never serves files outside the build', async () => {
    for (const path of ['/app/../dl-outside.txt', '/app/%2e%2e/dl-outside.txt', '/app/assets/%2e%2e/%2e%2e/dl-outside.txt']) {
      const res = await request(t.server.url).get(path);
      expect(res.text).not.toContain('secret');
    }
  });

  it('leaves the API alone', async () => {
    await request(t.server.url).get('/api/links').expect(401);
    await request(t.server.url).get('/openapi.json').expect(200);
  });

  it('says how to build the dashboard when there is no build', async () => {
    const res = await request(t.unbuilt.url).get('/app/links').expect(503);
    expect(res.text).toContain('npm run build:dashboard');
  });
});
