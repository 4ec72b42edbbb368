import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { bullOptions } from '@dl/platform/queue';
import { createTestEnv, TestEnv } from '@dl/testing';
import { runCommand } from './run';

// The operator CLI's rules, in-process on the test file's database and Redis: what each command
// refuses (exit 1) and the usage errors (exit 2). cli.e2e.spec.ts runs the process itself.
describe(runCommand.name, () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(() => env?.teardown());

  const cli = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL, REDIS_CLUSTER_NODES, PASSWORD_SCRYPT_LOG2N } = env.config;
    // The harness's password cost (the CLI process in cli.e2e runs at the default one).
    const vars = { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL, REDIS_CLUSTER_NODES, PASSWORD_SCRYPT_LOG2N: String(PASSWORD_SCRYPT_LOG2N) };
    const code = await runCommand(argv, vars, {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
    });
    return { code, stdout, stderr, json: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : undefined };
  };

  it('refuses what the services refuse, with exit 1 and nothing on stdout', async () => {
    expect((await cli('org:create', '--name', 'Taken', '--owner-email', 'taken@cli.test', '--owner-password', 'owner-password-1')).code).toBe(0);
    expect((await cli('org:create', '--name', 'Works', '--owner-email', 'works@cli.test', '--owner-password', 'owner-password-1')).code).toBe(0);
    const dup = await cli('org:create', '--name', 'Again', '--owner-email', 'TAKEN@cli.test', '--owner-password', 'owner-password-1');
    expect([dup.code, dup.stdout, dup.stderr.trim()]).toEqual([1, '', 'Error: An account with this email already exists']);
    const unknownOrg = await cli('org:set-tier', 'no-such-org', 'PRO');
    expect([unknownOrg.code, unknownOrg.stdout, unknownOrg.stderr.trim()]).toEqual([1, '', 'Error: Organization not found: no-such-org']);
    expect((await cli('key:create', 'taken', '--email', 'taken@cli.test', '--name', 'k')).code).toBe(0); // FREE allows one key
    const second = await cli('key:create', 'taken', '--email', 'taken@cli.test', '--name', 'k2');
    expect([second.code, second.stdout, second.stderr.trim()]).toEqual([1, '', 'Error: API key limit reached for your plan']);
    const wrongPassword = await cli('user:add', 'works', '--email', 'taken@cli.test', '--password', 'not-the-password', '--role', 'VIEWER');
    expect([wrongPassword.code, wrongPassword.stdout]).toEqual([1, '']);
    expect(wrongPassword.stderr).toContain('password: Does not match the existing account of this email');
    const notMember = await cli('key:create', 'taken', '--email', 'works@cli.test', '--name', 'k');
    expect([notMember.code, notMember.stderr.trim()]).toEqual([1, 'Error: No member with email works@cli.test in this organization']);
  }, 120_000);

  it('refuses bad usage with exit 2 and the command usage, writing nothing', async () => {
    const runs = [
      await cli('org:create', '--name', 'X', '--owner-email', 'x@cli.test'),
      await cli('org:create', '--name', 'X', '--owner-email', 'not-an-email', '--owner-password', 'owner-password-1'),
      await cli('org:create', '--name', 'X', '--owner-email', 'x@cli.test', '--owner-password', 'short'),
      await cli('user:add', 'x', '--email', 'x@cli.test', '--password', 'owner-password-1', '--role', 'KING'),
      await cli('org:set-tier', 'x', 'GOLD'),
      await cli('org:set-tier', 'x'),
      await cli('key:create', 'x', '--email', 'x@cli.test', '--name', 'k', '--scope', 'all'),
      await cli('frobnicate'),
      await cli(),
      await cli('jobs:retry-failed', 'nope'),
    ];
    expect(runs.map((r) => [r.code, r.stdout, r.stderr.split('\n')[0]])).toEqual([
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
    expect(runs[0].stderr).toContain('usage: npm run cli -- org:create');
    expect(await env.prisma.organization.count({ where: { name: 'X' } })).toBe(0);
  });

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
  });
});
