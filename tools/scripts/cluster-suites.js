// The specs the test run repeats on a 6-node Redis Cluster (decisions §18): the Redis paths §18
// names, each once: redirect and clicks, invalidation pub/sub, rate limits, the webhook lanes,
// SDK ingestion, and a master failover under redirect load. The specs that exercise each path's
// Redis commands and scripts (multi-key scripts must find their keys in one slot), not every
// spec that happens to touch Redis. jest.preset.js makes them the `cluster` project.
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const CLUSTER_SUITES = [
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

// A renamed or moved spec must be renamed here too, not silently skipped.
const missing = CLUSTER_SUITES.filter((s) => !existsSync(path.join(root, s)));
if (missing.length) throw new Error(`tools/scripts/cluster-suites.js lists specs that do not exist:\n  ${missing.join('\n  ')}`);

module.exports = { CLUSTER_SUITES };
