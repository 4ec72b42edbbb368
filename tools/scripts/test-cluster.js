#!/usr/bin/env node
// `npm run test:cluster` (decisions §18): the Redis paths §18 names, again, on one 6-node Redis
// Cluster that the jest global setup starts on loopback (TEST_REDIS_CLUSTER=1) and every app and
// client of the run uses (REDIS_CLUSTER_NODES): redirect and clicks, invalidation pub/sub, rate
// limits, the webhook lanes, SDK ingestion, and a master failover under redirect load. Each path
// once: the specs that exercise its Redis commands and scripts (multi-key scripts must find their
// keys in one slot), not every spec that happens to touch Redis. Extra arguments go to jest.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const SUITES = [
  // Redirect and clicks: the visit, the click queue and the worker's batches; the edge's click-cap script.
  'apps/redirect/src/redirect.e2e.spec.ts',
  'apps/worker/src/clicks/clicks.e2e.spec.ts',
  'libs/redirect/src/click-cap.medium.spec.ts',
  // Invalidation pub/sub: a link change reaches the edge's caches.
  'apps/redirect/src/propagation.e2e.spec.ts',
  // Rate limits: the plan's request windows, the login throttle and the credential cache.
  'apps/api/src/auth/rate-limit.e2e.spec.ts',
  'apps/api/src/auth/credentials.e2e.spec.ts',
  // Webhook lanes: one lane per webhook, the rate gate, the sweep of lost drains.
  'apps/worker/src/webhooks/webhooks-isolation.e2e.spec.ts',
  'apps/worker/src/webhooks/webhook-lane-sweep.e2e.spec.ts',
  'libs/webhooks/src/rate-gate.medium.spec.ts',
  // SDK ingestion: the ingest rate limiter and queue.
  'apps/ingest/src/sdk/sdk.e2e.spec.ts',
  // A master failover during redirect load, no click lost.
  'apps/redirect/src/cluster-failover.e2e.spec.ts',
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
