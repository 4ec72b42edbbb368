import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { SafetyModule, SafetyService } from '@dl/safety';
import { closeAll, serviceEnv, TestEnv } from '@dl/testing';
import { runCommand } from './run';

/**
 * decisions §22: `threats:reload` reports each feed file and makes every process that screens
 * reload its feeds at once, without waiting for its poll of the files (30 s here, the longest allowed).
 */
describe('threats:reload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threats-reload-'));
  const feed = join(dir, 'feed.txt');
  let env: TestEnv, app: INestApplicationContext, safety: SafetyService;

  beforeAll(async () => {
    writeFileSync(feed, 'one.test\nnot a line\n');
    ({ env, app } = await serviceEnv([SafetyModule], { THREAT_FEEDS: feed, THREAT_FEEDS_POLL_MS: '30000' }));
    safety = app.get(SafetyService);
  });
  afterAll(() => closeAll(app, env));

  const cli = async (...argv: string[]) => {
    let stdout = '';
    const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL, REDIS_CLUSTER_NODES } = env.config;
    const vars = { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL, REDIS_CLUSTER_NODES, THREAT_FEEDS: feed };
    const code = await runCommand(argv, vars, { stdout: (t) => void (stdout += t), stderr: () => undefined });
    return { code, json: stdout ? (JSON.parse(stdout) as unknown) : undefined };
  };

  it('prints each file (entries, malformed lines, errors) and the running processes reload now', async () => {
    expect(await safety.screen(['http://one.test/', 'http://two.test/'])).toEqual([
      { status: 'blocked', reason: 'blocklisted domain' },
      { status: 'ok', reason: null },
    ]);
    writeFileSync(feed, 'two.test\n0.0.0.0 three.test\nnot a line\n');
    const loaded = new Promise<void>((resolve) => safety.onFeedsLoaded(() => resolve()));
    expect(await cli('threats:reload')).toEqual({
      code: 0,
      json: { entries: 2, files: [{ path: feed, entries: 2, malformed: 1, error: null }], notified: 1 },
    });
    await loaded;
    expect(await safety.screen(['http://one.test/', 'http://two.test/', 'http://www.three.test/'])).toEqual([
      { status: 'ok', reason: null },
      { status: 'blocked', reason: 'blocklisted domain' },
      { status: 'blocked', reason: 'blocklisted domain' },
    ]);
  });
});
