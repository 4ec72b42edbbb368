// Root jest config: every project's tests in one run (see tools/scripts/test.js).
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

function projectsIn(dir) {
  const abs = path.join(__dirname, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs)
    .filter((name) => fs.existsSync(path.join(abs, name, 'jest.config.js')))
    .map((name) => `<rootDir>/${dir}/${name}`);
}

module.exports = {
  // Two files at a time even on 2 cores: the suites mostly wait on Postgres, Redis and child
  // processes, and one worker (jest's 50% of 2 cores) left the machine idle half the run.
  maxWorkers: process.env.JEST_MAX_WORKERS || (os.cpus().length <= 4 ? 2 : '50%'),
  // A global option: the projects' own testTimeout is ignored in a multi-project run.
  testTimeout: 30000,
  projects: [...projectsIn('apps'), ...projectsIn('libs'), ...projectsIn('libs/platform'), '<rootDir>/tools', '<rootDir>/tools/db'],
};
