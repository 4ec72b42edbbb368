import { Queue, UnrecoverableError, Worker } from 'bullmq';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { bullOptions } from '@dl/platform/queue';
import { authHeader, CliRun, createTestEnv, runCli, RunningApp, startApp, TestEnv } from '@dl/testing';

describe('operator CLI (npm run cli)', () => {
  let env: TestEnv;
  let api: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    api = await startApp(createApiApp, env.config);
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
  });

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

  it('refuses what the services refuse, with exit 1 and nothing on stdout', async () => {
    await cli('org:create', '--name', 'Taken', '--owner-email', 'taken@cli.test', '--owner-password', 'owner-password-1');
    const [dup, unknownOrg, overLimit, wrongPassword] = await Promise.all([
      cli('org:create', '--name', 'Again', '--owner-email', 'TAKEN@cli.test', '--owner-password', 'owner-password-1'),
      cli('org:set-tier', 'no-such-org', 'PRO'),
      cli('key:create', 'taken', '--email', 'taken@cli.test', '--name', 'k'),
      cli('user:add', 'cli-works', '--email', 'taken@cli.test', '--password', 'not-the-password', '--role', 'VIEWER'),
    ]);
    expect([dup.code, dup.stdout, dup.stderr.trim()]).toEqual([1, '', 'Error: An account with this email already exists']);
    expect([unknownOrg.code, unknownOrg.stdout, unknownOrg.stderr.trim()]).toEqual([1, '', 'Error: Organization not found: no-such-org']);
    expect(overLimit.code).toBe(0); // FREE allows one key
    const second = await cli('key:create', 'taken', '--email', 'taken@cli.test', '--name', 'k2');
    expect([second.code, second.stdout, second.stderr.trim()]).toEqual([1, '', 'Error: API key limit reached for your plan']);
    expect(wrongPassword.code).toBe(1);
    expect(wrongPassword.stderr).toContain('password: Does not match the existing account of this email');
    const notMember = await cli('key:create', 'taken', '--email', 'dev@cli.test', '--name', 'k');
    expect([notMember.code, notMember.stderr.trim()]).toEqual([1, 'Error: No member with email dev@cli.test in this organization']);
  }, 120_000);

  it('refuses bad usage with exit 2 and the command usage', async () => {
    const runs = await Promise.all([
      cli('org:create', '--name', 'X', '--owner-email', 'x@cli.test'),
      cli('org:create', '--name', 'X', '--owner-email', 'not-an-email', '--owner-password', 'owner-password-1'),
      cli('org:create', '--name', 'X', '--owner-email', 'x@cli.test', '--owner-password', 'short'),
      cli('user:add', 'x', '--email', 'x@cli.test', '--password', 'owner-password-1', '--role', 'KING'),
      cli('org:set-tier', 'x', 'GOLD'),
      cli('org:set-tier', 'x'),
      cli('key:create', 'x', '--email', 'x@cli.test', '--name', 'k', '--scope', 'all'),
      cli('frobnicate'),
      cli(),
      cli('jobs:retry-failed', 'nope'),
    ]);
    const messages = runs.map((r) => [r.code, r.stdout, r.stderr.split('\n')[0]]);
    expect(messages).toEqual([
      [2, '', 'Error: Missing --owner-password'],
      [2, '', 'Error: --owner-email must be a valid email address'],
      [2, '', 'Error: --owner-password must be 10-200 characters'],
      [2, '', 'Error: Unknown role "KING" (one of OWNER, ADMIN, MEMBER, VIEWER)'],
      [2, '', 'Error: Unknown tier "GOLD" (one of FREE, PRO, BUSINESS, UNLIMITED)'],
      [2, '', 'Error: Missing <tier>'],
      [2, '', 'Error: Unknown option --scope'],
      [2, '', 'Error: unknown command "frobnicate"'],
      [2, '', 'usage: npm run cli -- <command> [args]'],
      [2, '', 'Error: Unknown queue "nope" (one of clicks, webhooks, webhook-drains, ingest, reports, maintenance)'],
    ]);
    expect(await env.prisma.organization.count({ where: { name: 'X' } })).toBe(0);
  }, 120_000);

  it('puts the failed jobs of a queue back to wait (a packed click batch an older worker refused)', async () => {
    const queue = new Queue('clicks', bullOptions(env.config));
    try {
      await queue.add('click.batch', { v: 2, s: [], i: [], r: [] }, { jobId: 'refused-by-an-older-worker' });
      await queue.add('click.batch', { clicks: [] }, { jobId: 'stored' });
      // A worker of the release before packed batches: `clicks` is not an array, so the job fails for good.
      const older = new Worker(
        'clicks',
        async (job) => {
          if (!Array.isArray((job.data as { clicks?: unknown }).clicks)) throw new UnrecoverableError('Malformed click batch: clicks is not an array');
        },
        bullOptions(env.config) as never,
      );
      const until = Date.now() + 10_000;
      while ((await queue.getFailedCount()) + (await queue.getCompletedCount()) < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await older.close();
      expect(await queue.getJobState('refused-by-an-older-worker')).toBe('failed');

      const run = await cli('jobs:retry-failed', 'clicks');
      expect([run.code, run.json]).toEqual([0, { queue: 'clicks', retried: 1 }]);
      expect(await queue.getJobState('refused-by-an-older-worker')).toBe('waiting');
      expect(await queue.getJobState('stored')).toBe('completed');
      expect((await cli('jobs:retry-failed', 'clicks')).json).toEqual({ queue: 'clicks', retried: 0 });
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }, 60_000);
});
