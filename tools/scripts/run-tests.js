#!/usr/bin/env node
// `npm test`: the static checks (type checks, project graph, OpenAPI and Dockerfile lint,
// eslint with the module boundaries), side by side since each is one process, then the three
// test tiers (unit, medium, e2e: jest.preset.js) and the `cluster` project (the Redis paths
// again on a Redis Cluster) in one jest run, so jest schedules the slow files beside the fast
// ones (real Postgres and Redis; each test file gets its own database and Redis prefix, so files
// run in parallel). Extra arguments go to jest (`npm test -- --selectProjects unit`); one tier
// alone is `npm run test:unit` (or test:medium, test:e2e).
const { spawn, spawnSync } = require('node:child_process');
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
const secsSince = (started) => ((Date.now() - started) / 1000).toFixed(1);

/** Runs the checks at once; each one's output is printed whole when it ends, then its verdict. */
async function checks(list) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${list.map((c) => c.title).join(', ')}\n`);
  const runs = new Map();
  const run = ({ title, cmd, args, after }) =>
    (after ? runs.get(after) : Promise.resolve(0)).then((before) =>
      before !== 0
        ? (process.stdout.write(`✖ ${title} (not run: ${after} failed)\n`), 1)
        : new Promise((resolve) => {
          const begun = Date.now();
          const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (d) => output.push(d));
          child.stderr.on('data', (d) => output.push(d));
          child.on('close', (code) => {
            const text = Buffer.concat(output).toString();
            if (text.trim()) process.stdout.write(`\n── ${title}\n${text.endsWith('\n') ? text : `${text}\n`}`);
            process.stdout.write(`${code === 0 ? '✔' : '✖'} ${title} (${secsSince(begun)}s)\n`);
            resolve(code);
          });
        }),
    );
  for (const check of list) runs.set(check.title, run(check));
  const results = await Promise.all(list.map((c) => runs.get(c.title)));
  const failed = list.filter((_, i) => results[i] !== 0);
  if (failed.length) {
    process.stdout.write(`✖ ${failed.map((c) => c.title).join(', ')} failed (${secsSince(started)}s)\n`);
    process.exit(1);
  }
  process.stdout.write(`✔ static checks (${secsSince(started)}s)\n`);
}

function step(title, cmd, args) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${title}\n`);
  const res = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (res.status !== 0) {
    process.stdout.write(`✖ ${title} failed after ${secsSince(started)}s\n`);
    process.exit(res.status ?? 1);
  }
  process.stdout.write(`✔ ${title} (${secsSince(started)}s)\n`);
}

async function main() {
  const jestArgs = process.argv.slice(2);
  if (!jestArgs.length) {
    await checks([
      { title: 'type check', cmd: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
      { title: 'type check (dashboard)', cmd: bin('tsc'), args: ['-p', 'apps/dashboard/tsconfig.json', '--noEmit'] },
      { title: 'project graph', cmd: bin('nx'), args: ['show', 'projects', '--json'] },
      { title: 'OpenAPI lint (Redocly, recommended rules)', cmd: bin('redocly'), args: ['lint', 'api', '--config', 'tools/openapi/redocly.yaml', '--format=summary'] },
      { title: 'Dockerfile lint', cmd: bin('dockerfilelint'), args: ['Dockerfile'] },
      // The module-boundaries rule reads the project graph Nx caches; without one it crashes.
      { title: 'lint (module boundaries)', cmd: bin('eslint'), args: ['apps', 'libs', 'tools', 'bench', '--max-warnings', '0', '--no-error-on-unmatched-pattern'], after: 'project graph' },
    ]);
    // The whole run also repeats the Redis paths on a 6-node Redis Cluster, with a master failover
    // (decisions §18): the `cluster` project, scheduled beside the tiers in the same jest run.
    env.TEST_REDIS_CLUSTER = '1';
    // And most specs several to a jest file, in one module registry (tools/scripts/test-groups.js).
    env.DL_TEST_GROUPS = '1';
  }
  step(jestArgs.length ? 'tests' : 'tests (unit, medium, e2e; the Redis paths on a Redis Cluster)', bin('jest'), ['-c', 'jest.config.js', ...jestArgs]);
}

void main();
