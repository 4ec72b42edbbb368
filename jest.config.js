// Root jest config: every test of the repo in one run, as three projects named after the test
// tiers (jest.preset.js): `--selectProjects unit` (or medium, e2e) runs one tier. One run shares
// one global setup and lets jest schedule the slow e2e files beside the fast ones. With
// TEST_REDIS_CLUSTER=1 (`npm test`, `npm run test:cluster`) a fourth project, `cluster`, runs the
// Redis paths of decisions §18 again on a Redis Cluster, in the same run. With DL_TEST_GROUPS=1
// (`npm test`'s whole run) most specs run several to a jest file (tools/scripts/test-groups.js).
const os = require('node:os');
const { clusterProject, groupedTierProjects, tierProjects } = require('./jest.preset');

const grouped = process.env.DL_TEST_GROUPS === '1';
const tiers = grouped ? groupedTierProjects : tierProjects;

const cores = os.cpus().length;

module.exports = {
  // More files at a time than jest's 50% of the cores: the suites wait on Postgres, Redis, child
  // processes and Chromium much of the time. On a small machine one more than its cores, at most 3
  // (docs/decisions/testing.md); on a large one, half its cores.
  maxWorkers: process.env.JEST_MAX_WORKERS || (cores <= 4 ? Math.min(cores + 1, 3) : Math.ceil(cores / 2)),
  // A safety net: a worker whose heap passes 1.5 GB after a test file is replaced. Each file has its
  // own module registry, and anything the process keeps (a PerformanceObserver, a pending timer)
  // that reaches into one keeps all of it; closed apps release theirs (MetricsService disconnects
  // its observers, the shutdown deadline's timer is cleared), and this bounds what anything else keeps.
  workerIdleMemoryLimit: '1.5GB',
  // A global option: the projects' own testTimeout is ignored in a multi-project run.
  testTimeout: 30000,
  // The longest files first (libs/testing/src/test-sequencer.js).
  testSequencer: require.resolve('./libs/testing/src/test-sequencer.js'),
  projects: [
    ...tiers({ rootDir: __dirname, roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/bench'] }),
    ...(process.env.TEST_REDIS_CLUSTER === '1' ? [clusterProject({ rootDir: __dirname, roots: ['<rootDir>/apps', '<rootDir>/libs'] }, grouped)] : []),
  ],
};
