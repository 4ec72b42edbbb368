import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { appEnv, RunningApp, TestEnv } from '@dl/testing';
import { demoSeededAt, ensureDemo, markDemoSeeded } from './demo';

describe(ensureDemo.name, () => {
  let env: TestEnv, api: RunningApp, root: string;

  beforeAll(async () => {
    ({ env, server: api } = await appEnv(createApiApp));
    root = mkdtempSync(join(tmpdir(), 'dl-demo-'));
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
    rmSync(root, { recursive: true, force: true });
  });

  const usage = (key: string) => request(api.url).get('/api/usage').set('Authorization', `Bearer ${key}`);

  it('creates the demo organization, owner and key once, and prints the same key on restart', async () => {
    const first = await ensureDemo(env.config, root);
    expect(first).toEqual({
      organization: { id: expect.any(String), name: 'Demo', slug: 'demo', tier: 'UNLIMITED' },
      templateId: expect.any(String),
      login: { email: 'demo@deeplink.local', password: expect.stringMatching(/^.{10,}$/) },
      apiKey: expect.stringMatching(/^dl_[0-9a-f]{64}$/),
      try: [
        `curl -H "Authorization: Bearer ${first.apiKey}" http://localhost:3000/api/usage`,
        expect.stringContaining('/auth/login'),
      ],
    });
    expect((await usage(first.apiKey).expect(200)).body.tier).toBe('UNLIMITED');
    await request(api.url).post('/auth/login').send(first.login).expect(200);
    expect(statSync(join(root, 'var', 'demo.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(root, 'var', 'demo.json'), 'utf8')).apiKey).toBe(first.apiKey);

    const second = await ensureDemo(env.config, root);
    expect(second).toEqual(first);
    // npm start's first-start history is remembered next to the key, and survives ensureDemo.
    const varDir = join(root, 'var');
    expect(demoSeededAt(varDir, env.config.DATABASE_URL)).toBeNull();
    markDemoSeeded(varDir, env.config.DATABASE_URL, new Date('2026-11-25T00:00:00Z'));
    await ensureDemo(env.config, root);
    expect(demoSeededAt(varDir, env.config.DATABASE_URL)).toBe('2026-11-25T00:00:00.000Z');
    expect(demoSeededAt(varDir, 'postgresql://postgres@127.0.0.1:5432/another')).toBeNull();
    expect(await env.prisma.organization.count({ where: { slug: 'demo' } })).toBe(1);
  });

  it('replaces a lost key (and revokes the old one) when var/demo.json is gone', async () => {
    const before = await ensureDemo(env.config, root);
    rmSync(join(root, 'var', 'demo.json'));
    const after = await ensureDemo(env.config, root);
    expect(after.organization).toEqual(before.organization);
    expect(after.apiKey).not.toBe(before.apiKey);
    await usage(after.apiKey).expect(200);
    expect((await usage(before.apiKey).expect(401)).body.message).toBe('API key has been deleted or revoked');
    await request(api.url).post('/auth/login').send(after.login).expect(200);
  });
});
