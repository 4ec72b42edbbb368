import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import request from 'supertest';
import { appEnv, clicksQueue, closeAll, createTestEnv, eventuallyMatches, queuedClicks, RunningApp, seedLink, seedRedirectOrg, startApp, TestEnv } from '@dl/testing';
import { createRedirectApp } from './app';

/** What the edge's configuration decides: whose client IP it trusts, and the association files it serves. */
describe('redirect edge: client IP and association files', () => {
  let env: TestEnv, server: RunningApp, queue: Queue, fallbackDir: string;

  beforeAll(async () => {
    fallbackDir = mkdtempSync(join(tmpdir(), 'dl-redirect-'));
    // No trusted header, no association-file configuration.
    ({ env, server } = await appEnv(createRedirectApp, { CLICK_FALLBACK_DIR: fallbackDir }));
    queue = clicksQueue(env.config);
  });

  afterAll(async () => {
    await queue?.close();
    await server?.close();
    await env?.teardown();
    rmSync(fallbackDir, { recursive: true, force: true });
  });

  it('ignores spoofed X-Forwarded-For (and an untrusted cf-connecting-ip) without TRUSTED_CLIENT_IP_HEADER', async () => {
    const org = await seedRedirectOrg(env.prisma);
    const link = await seedLink(env.prisma, org, { targetingRules: { countries: ['US'] }, webFallbackUrl: 'https://example.com/elsewhere' });
    const res = await request(server.url)
      .get(`/${link.shortCode}`)
      .set('X-Forwarded-For', '8.8.8.8')
      .set('cf-connecting-ip', '8.8.8.8')
      .redirects(0)
      .expect(302);
    expect(res.headers.location).toBe('https://example.com/elsewhere');
    const jobs = await eventuallyMatches(() => queuedClicks(queue), (js) => js.some((j) => j.linkId === link.id));
    expect(jobs.find((j) => j.linkId === link.id)?.ip).toBe('127.0.0.1');
  });

  it('association files answer 404 when not configured', async () => {
    for (const path of ['/.well-known/apple-app-site-association', '/.well-known/assetlinks.json']) {
      const res = await request(server.url).get(path).expect(404);
      expect(res.text).toContain('Link not found');
    }
  });
});

describe('redirect edge: association files when configured', () => {
  let env: TestEnv, server: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv({
      IOS_TEAM_ID: 'ABCDE12345',
      IOS_BUNDLE_ID: 'com.example.app',
      ANDROID_PACKAGE_NAME: 'com.example.android',
      ANDROID_SHA256_FINGERPRINTS: 'aa:bb:cc, DD:EE:FF',
    });
    server = await startApp(createRedirectApp, env.config);
  });

  afterAll(() => closeAll(server, env));

  it('serves apple-app-site-association', async () => {
    const res = await request(server.url).get('/.well-known/apple-app-site-association').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      applinks: {
        apps: [],
        details: [
          {
            appID: 'ABCDE12345.com.example.app',
            appIDs: ['ABCDE12345.com.example.app'],
            paths: ['*'],
            components: [{ '/': '*' }],
          },
        ],
      },
      webcredentials: { apps: ['ABCDE12345.com.example.app'] },
    });
  });

  it('serves assetlinks.json', async () => {
    const res = await request(server.url).get('/.well-known/assetlinks.json').expect(200);
    expect(res.body).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: 'com.example.android',
          sha256_cert_fingerprints: ['AA:BB:CC', 'DD:EE:FF'],
        },
      },
    ]);
  });
});
