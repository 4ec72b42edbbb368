#!/usr/bin/env node
// `npm run test:cluster` (decisions §18): the end-to-end suites of the Redis paths (redirect and
// clicks, invalidation pub/sub, rate limits, webhook lanes, SDK ingestion) again, on one 6-node
// Redis Cluster that the jest global setup starts on loopback (TEST_REDIS_CLUSTER=1) and every
// app of the run uses (REDIS_CLUSTER_NODES), plus the master failover under redirect load.
// Extra arguments go to jest.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const SUITES = [
  'apps/redirect/src/redirect.e2e.spec.ts',
  'apps/redirect/src/app.e2e.spec.ts',
  'apps/redirect/src/link-controls.e2e.spec.ts',
  'apps/redirect/src/propagation.e2e.spec.ts',
  'apps/redirect/src/cluster-failover.e2e.spec.ts',
  'apps/api/src/links/links-redirect.e2e.spec.ts',
  'apps/worker/src/clicks/clicks.e2e.spec.ts',
  'apps/api/src/auth/rate-limit.e2e.spec.ts',
  'apps/api/src/auth/credentials.e2e.spec.ts',
  'apps/worker/src/webhooks/webhooks-delivery.e2e.spec.ts',
  'apps/worker/src/webhooks/webhooks-isolation.e2e.spec.ts',
  'apps/worker/src/webhooks/webhook-lane-sweep.e2e.spec.ts',
  'apps/worker/src/webhooks/webhooks-clicks.e2e.spec.ts',
  'apps/ingest/src/sdk/sdk.e2e.spec.ts',
  'apps/ingest/src/app.e2e.spec.ts',
  'apps/worker/src/ingest/install-webhook.e2e.spec.ts',
];

// A renamed or moved suite must be renamed here too, not silently skipped.
const missing = SUITES.filter((s) => !require('node:fs').existsSync(path.join(root, s)));
if (missing.length) {
  process.stderr.write(`test-cluster.js lists suites that do not exist:\n  ${missing.join('\n  ')}\n`);
  process.exit(1);
}

const res = spawnSync(
  path.join(root, 'node_modules', '.bin', 'jest'),
  ['-c', 'jest.config.js', '--runTestsByPath', ...SUITES, ...process.argv.slice(2)],
  { cwd: root, env: { ...process.env, TEST_REDIS_CLUSTER: '1', NX_DAEMON: 'false', NX_NO_CLOUD: 'true' }, stdio: 'inherit' },
);
process.exit(res.status ?? 1);
