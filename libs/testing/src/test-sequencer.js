// jest testSequencer of the whole run: the longest files first, so neither worker is left with a
// long file at the end. A file's last duration when jest has it; otherwise an estimate by kind,
// since a fresh clone (CI) has no durations and jest's fallback, file size, puts the generated
// group entries (tools/scripts/test-groups.js, a few lines each) last.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Estimated seconds of a spec by its path. */
function estimate(path) {
  if (path.includes('/var/test-groups/')) {
    const members = [...readFileSync(path, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    return members.reduce((sum, m) => sum + (m.endsWith('.e2e.spec.ts') ? 5 : m.endsWith('.medium.spec.ts') ? 3 : 1), 0);
  }
  if (path.includes('/apps/dashboard/')) return 90;
  if (path.endsWith('.e2e.spec.ts')) return 25;
  if (path.endsWith('.medium.spec.ts')) return 6;
  return 2;
}

class LongestFirst extends Sequencer {
  sort(tests) {
    for (const test of tests) test.duration = this.time(test) ?? estimate(test.path) * 1000;
    return tests.sort((a, b) => b.duration - a.duration);
  }
}

module.exports = LongestFirst;
