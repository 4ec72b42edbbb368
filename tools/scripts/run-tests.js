#!/usr/bin/env node
// `npm test`: type check, lint (module boundaries), then the three test tiers (unit, medium,
// e2e: jest.preset.js) and the `cluster` project (the Redis paths again on a Redis Cluster) in
// one jest run, so jest schedules the slow files beside the fast ones (real Postgres and Redis;
// each test file gets its own database and Redis prefix, so files run in parallel).
// Extra arguments go to jest (`npm test -- --selectProjects unit`); one tier alone is
// `npm run test:unit` (or test:medium, test:e2e).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
};
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function step(title, cmd, args) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${title}\n`);
  const res = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (res.status !== 0) {
    process.stdout.write(`✖ ${title} failed after ${secs}s\n`);
    process.exit(res.status ?? 1);
  }
  process.stdout.write(`✔ ${title} (${secs}s)\n`);
}

const jestArgs = process.argv.slice(2);
if (!jestArgs.length) {
  step('type check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
  step('type check (dashboard)', bin('tsc'), ['-p', 'apps/dashboard/tsconfig.json', '--noEmit']);
  step('project graph', bin('nx'), ['show', 'projects', '--json']);
  step('OpenAPI lint (Redocly, recommended rules)', bin('redocly'), ['lint', 'api', '--config', 'tools/openapi/redocly.yaml', '--format=summary']);
  step('Dockerfile lint', bin('dockerfilelint'), ['Dockerfile']);
  step('lint (module boundaries)', bin('eslint'), ['apps', 'libs', 'tools', 'bench', '--max-warnings', '0', '--no-error-on-unmatched-pattern']);
}
// The whole run also repeats the Redis paths on a 6-node Redis Cluster, with a master failover
// (decisions §18): the `cluster` project, scheduled beside the tiers in the same jest run.
if (!jestArgs.length) env.TEST_REDIS_CLUSTER = '1';
step(jestArgs.length ? 'tests' : 'tests (unit, medium, e2e; the Redis paths on a Redis Cluster)', bin('jest'), ['-c', 'jest.config.js', ...jestArgs]);
