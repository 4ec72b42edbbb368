// Root jest config: every test of the repo in one run, as three projects named after the test
// tiers (jest.preset.js): `--selectProjects unit` (or medium, e2e) runs one tier. One run shares
// one global setup and lets jest schedule the slow e2e files beside the fast ones.
const os = require('node:os');
const { tierProjects } = require('./jest.preset');

module.exports = {
  // Two files at a time even on 2 cores: the suites mostly wait on Postgres, Redis and child
  // processes, and one worker (jest's 50% of 2 cores) left the machine idle half the run.
  maxWorkers: process.env.JEST_MAX_WORKERS || (os.cpus().length <= 4 ? 2 : '50%'),
  // Each test file has its own module registry, and about 120 MB of each e2e file's stays reachable
  // after the file ends (measured with --expose-gc --logHeapUsage -i; not the process guard's
  // listeners: removing them changed nothing). A worker reached V8's 4 GB heap limit and crashed
  // ("ran out of memory"). A worker past 1.5 GB after a file is replaced. Production runs one
  // registry per process, so nothing accumulates there.
  workerIdleMemoryLimit: '1.5GB',
  // A global option: the projects' own testTimeout is ignored in a multi-project run.
  testTimeout: 30000,
  projects: tierProjects({ rootDir: __dirname, roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/bench'] }),
};
