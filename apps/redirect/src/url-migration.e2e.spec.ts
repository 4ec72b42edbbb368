import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { closeAll, createTestEnv, RunningApp, seedLink, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

const MIGRATION = join(__dirname, '..', '..', '..', 'prisma', 'migrations', '20261125030000_normalize_stored_urls', 'migration.sql');

/** Runs the migration's SQL on its own connection (its helper functions live in that session's pg_temp). */
async function applyMigration(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(readFileSync(MIGRATION, 'utf8'));
  } finally {
    await client.end();
  }
}

describe('migration 20261125030000_normalize_stored_urls on rows stored before normalisation (decisions §14)', () => {
  let env: TestEnv, redirect: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(() => closeAll(redirect, env));

  it('percent-encodes non-ASCII, trims controls, leaves ASCII alone; the redirect then answers a valid Location', async () => {
    const org = await seedRedirectOrg(env.prisma);
    // Stored raw, as the service did before URLs were normalised.
    const raw = {
      original: 'https://example.com/café/€?q=naïve&x=日本',
      ios: ' https://apps.example.com/ü/path\t',
      android: 'https://example.com/a\nb/ñ',
      web: 'https://example.com/plain?ok=1',
      og: 'https://cdn.example.com/ünïcode.png',
    };
    const link = await seedLink(env.prisma, org, {
      originalUrl: raw.original,
      iosUrl: raw.ios,
      androidUrl: raw.android,
      webFallbackUrl: raw.web,
      ogImageUrl: raw.og,
    });
    const ascii = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/already%C3%A9?a=b#frag' });
    await env.prisma.template.update({
      where: { id: org.templateId },
      data: { defaults: { originalUrl: 'https://example.com/tmpl/é', title: 'Café €', utmSource: 'newsletter' } },
    });
    const webhook = await env.prisma.webhook.create({
      data: { organizationId: org.organizationId, url: 'https://hooks.example.com/ŵebhook', events: ['link.clicked'], secret: 'whsec_x' },
    });
    const app = await env.prisma.app.create({
      data: {
        organizationId: org.organizationId, name: 'App', platform: 'ios', bundleId: 'com.example.app',
        appStoreUrl: 'https://apps.apple.com/fr/app/café/id1', tokenHash: 'a'.repeat(64), tokenPrefix: 'dla_aaaa',
      },
    });

    await applyMigration(env.db.url);

    const after = await env.prisma.link.findUniqueOrThrow({ where: { id: link.id } });
    expect(after.originalUrl).toBe('https://example.com/caf%C3%A9/%E2%82%AC?q=na%C3%AFve&x=%E6%97%A5%E6%9C%AC');
    expect(after.iosUrl).toBe('https://apps.example.com/%C3%BC/path');
    expect(after.androidUrl).toBe('https://example.com/ab/%C3%B1');
    expect(after.webFallbackUrl).toBe(raw.web);
    expect(after.ogImageUrl).toBe('https://cdn.example.com/%C3%BCn%C3%AFcode.png');
    // The same as the WHATWG parser that normalises new writes.
    for (const [stored, input] of [
      [after.originalUrl, raw.original],
      [after.iosUrl, raw.ios],
      [after.androidUrl, raw.android],
      [after.ogImageUrl, raw.og],
    ]) {
      expect(stored).toBe(new URL(input!).href);
    }
    expect((await env.prisma.link.findUniqueOrThrow({ where: { id: ascii.id } })).originalUrl).toBe('https://example.com/already%C3%A9?a=b#frag');
    // Template defaults: URL fields normalised, other text untouched.
    expect((await env.prisma.template.findUniqueOrThrow({ where: { id: org.templateId } })).defaults).toEqual({
      originalUrl: 'https://example.com/tmpl/%C3%A9',
      title: 'Café €',
      utmSource: 'newsletter',
    });
    expect((await env.prisma.webhook.findUniqueOrThrow({ where: { id: webhook.id } })).url).toBe('https://hooks.example.com/%C5%B5ebhook');
    expect((await env.prisma.app.findUniqueOrThrow({ where: { id: app.id } })).appStoreUrl).toBe('https://apps.apple.com/fr/app/caf%C3%A9/id1');

    // Applying it again changes nothing.
    const snapshot = await env.prisma.link.findMany({ where: { organizationId: org.organizationId }, orderBy: { id: 'asc' } });
    await applyMigration(env.db.url);
    expect(await env.prisma.link.findMany({ where: { organizationId: org.organizationId }, orderBy: { id: 'asc' } })).toEqual(snapshot);

    // The redirect answers the migrated row with a valid Location (it used to kill the process).
    redirect = await startApp(createRedirectApp, env.config);
    const ios = await request(redirect.url).get(`/${link.shortCode}`).set('user-agent', UA.iphone).expect(302);
    expect(ios.headers.location).toBe(after.iosUrl);
    const android = await request(redirect.url).get(`/${link.shortCode}`).set('user-agent', UA.android).expect(302);
    expect(android.headers.location).toBe(after.androidUrl);
    await request(redirect.url).get('/health').expect(200);
  });
});
