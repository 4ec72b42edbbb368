#!/usr/bin/env node
// `npm run test:cluster` (decisions §18): the `cluster` jest project alone (jest.preset.js): the
// specs of tools/scripts/cluster-suites.js again, every app and client of the run on one 6-node
// Redis Cluster that the project's global setup starts on loopback. `npm test` runs the same
// project inside its one jest run. Extra arguments go to jest.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const res = spawnSync(
  path.join(root, 'node_modules', '.bin', 'jest'),
  ['-c', 'jest.config.js', '--selectProjects', 'cluster', ...process.argv.slice(2)],
  { cwd: root, env: { ...process.env, TEST_REDIS_CLUSTER: '1', NX_DAEMON: 'false', NX_NO_CLOUD: 'true' }, stdio: 'inherit' },
);
process.exit(res.status ?? 1);
