import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { appEnv, authHeader, CliRun, closeAll, runCli, RunningApp, TestEnv } from '@dl/testing';

describe('operator CLI (npm run cli)', () => {
  let env: TestEnv, api: RunningApp;

  beforeAll(async () => ({ env, server: api } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false' })));
  afterAll(() => closeAll(api, env));

  const cli = (...args: string[]): Promise<CliRun> => runCli(env.config, args);

  it('creates an organization, adds a user, sets the tier and issues a key that the api accepts', async () => {
    const made = await cli('org:create', '--name', 'Cli Works', '--owner-email', 'Owner@Cli.test', '--owner-password', 'owner-password-1');
    expect(made.code).toBe(0);
    expect(made.stdout.trim().split('\n')).toHaveLength(1);
    expect(made.json).toEqual({
      organization: { id: expect.any(String), name: 'Cli Works', slug: 'cli-works', tier: 'FREE' },
      user: { id: expect.any(String), email: 'owner@cli.test', name: 'Owner' },
    });
    const template = await env.prisma.template.findFirst({ where: { organizationId: made.json!.organization.id, slug: 'default' } });
    expect(template).not.toBeNull();

    const added = await cli('user:add', 'cli-works', '--email', 'dev@cli.test', '--password', 'dev-password-1', '--role', 'member');
    expect(added.code).toBe(0);
    expect(added.json).toEqual({ user: { id: expect.any(String), email: 'dev@cli.test', name: 'dev' }, role: 'MEMBER' });

    const key = await cli('key:create', made.json!.organization.id, '--email', 'dev@cli.test', '--name', 'ci');
    expect(key.code).toBe(0);
    expect(key.json).toEqual({ id: expect.any(String), name: 'ci', key: expect.stringMatching(/^dl_[0-9a-f]{64}$/) });
    const usage = await request(api.url).get('/api/usage').set(authHeader(key.json!.key)).expect(200);
    expect(usage.body.tier).toBe('FREE');

    const tier = await cli('org:set-tier', 'cli-works', 'PRO');
    expect(tier.code).toBe(0);
    expect(tier.json).toEqual({ organization: { id: made.json!.organization.id, name: 'Cli Works', slug: 'cli-works', tier: 'PRO' } });
    // The running api sees the new plan on the next request (the CLI invalidates its cache).
    const after = await request(api.url).get('/api/usage').set(authHeader(key.json!.key)).expect(200);
    expect(after.body).toMatchObject({ tier: 'PRO', apiKeys: { used: 1, limit: 3 } });

    const login = await request(api.url).post('/auth/login').send({ email: 'dev@cli.test', password: 'dev-password-1' }).expect(200);
    await request(api.url).get('/api/keys').set(authHeader(login.body.accessToken)).expect(200);
  }, 120_000);

  it('answers a bad usage with exit 2 on stderr only (every refusal and its exit code: cli.medium.spec.ts)', async () => {
    const unknownCommand = await cli('frobnicate');
    expect([unknownCommand.code, unknownCommand.stdout, unknownCommand.stderr.split('\n')[0]]).toEqual([2, '', 'Error: unknown command "frobnicate"']);
  }, 120_000);
});
