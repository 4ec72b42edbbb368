import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tier } from '@dl/platform/db';
import { CliRun, createTestEnv, IMPORT_FIXTURES_DIR as FIXTURES, runCli, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';

describe('npm run cli -- import:file', () => {
  let env: TestEnv;
  let org: SeededOrganization;
  /** One CLI run may take CLI_MS (it starts Nest in a child process); a test allows that for each run it makes. */
  const CLI_MS = 120_000;
  const cli = (...args: string[]): Promise<CliRun> => runCli(env.config, args, CLI_MS);

  beforeAll(async () => {
    env = await createTestEnv();
    org = await seedOrganization(env, { tier: Tier.PRO, name: 'Cli Import' });
    await env.prisma.domain.create({
      data: { organizationId: org.organization.id, domain: 'go.cli-import.test', status: 'verified', verificationToken: '0'.repeat(32), verifiedAt: new Date() },
    });
  });
  afterAll(() => env?.teardown());

  it('imports an export recognized from its header onto --domain: progress bar and summary on stderr, the counts as JSON on stdout', async () => {
    const run = await cli('import:file', org.organization.slug, join(FIXTURES, 'yourls.csv'), '--domain', 'go.cli-import.test');
    expect(run.stderr).toMatch(/checking \[#+\] 100% 2\/2/);
    expect(run.stderr).toMatch(/writing +\[#+\] 100% 2\/2/);
    expect(run.stderr).toContain('imported 2, skipped 0, failed 0\n');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    const link = await env.prisma.link.findFirstOrThrow({ where: { shortCode: 'yl-wiki', domainName: 'go.cli-import.test' } });
    expect(link).toMatchObject({
      organizationId: org.organization.id,
      userId: org.owner.user.id,
      templateId: org.template.id,
      title: 'Team wiki',
      migrationMetadata: { competitorPlatform: 'yourls', competitorId: null, clicks: 1234 },
    });
    expect(link.createdAt.toISOString()).toBe('2019-05-04T13:37:00.000Z');
  }, CLI_MS);

  it('a second run skips the taken codes and says why in the summary', async () => {
    const run = await cli('import:file', org.organization.id, join(FIXTURES, 'yourls.csv'), '--domain', 'go.cli-import.test', '--platform', 'yourls');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      imported: 0,
      skipped: 2,
      failed: 0,
      errors: [
        { row: 1, message: "Short code 'yl-wiki' is already in use: skipped" },
        { row: 2, message: "Short code 'yl-status' is already in use: skipped" },
      ],
    });
    expect(run.stderr).toContain("imported 0, skipped 2, failed 0\n  row 1: Short code 'yl-wiki' is already in use: skipped\n");
  }, CLI_MS);

  it('refusals: an unknown export (exit 1, naming the formats), a missing file or bad option (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-file-'));
    writeFileSync(join(dir, 'people.csv'), 'name,email\nAda,ada@example.com\n');
    const unknown = await cli('import:file', org.organization.slug, join(dir, 'people.csv'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Error: Validation error \(file: Unrecognized export: expected the link export of Firebase Dynamic Links, .*\)\n$/);
    const missing = await cli('import:file', org.organization.slug, join(dir, 'nope.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Error: Cannot read ${join(dir, 'nope.csv')}`);
    const badConflict = await cli('import:file', org.organization.slug, join(dir, 'people.csv'), '--conflict', 'merge');
    expect(badConflict.code).toBe(2);
    expect(badConflict.stderr).toContain('Error: --conflict must be skip, overwrite or rename');
    expect(await env.prisma.link.count({ where: { organizationId: org.organization.id } })).toBe(2);
  }, 3 * CLI_MS);
});
