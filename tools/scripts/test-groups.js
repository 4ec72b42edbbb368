// Test groups of the whole run (`npm test`): jest gives every test file its own module registry,
// so each file loads Nest, Prisma, the app and the test kit again (2-4 CPU-seconds an e2e file,
// more than most files' own tests). The whole run instead runs the spec files of a tier and an
// app or lib together, several per jest file: generated entries in var/test-groups that require
// them in turn, each spec keeping its own hooks, database and apps. A spec named on the command
// line (`npx jest path/to/x.e2e.spec.ts`) or a tier run alone (`npm run test:e2e`) runs as before.
//
// Standalone stay the specs that mock or spy on modules or set process.env (found by reading
// them: their changes would reach the other specs of a registry), and those listed below, whose
// own work (Chromium, child processes, private servers, outages) outweighs the load.
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const OUT = path.join(root, 'var', 'test-groups');
const SEARCHED = ['apps', 'libs', 'tools', 'bench'];

/** Specs that run in a jest file of their own (paths from the repo root; a folder ends in /). */
const STANDALONE = [
  // Chromium
  'apps/dashboard/',
  // Child processes, private servers, outages, load
  'apps/api/src/processes.e2e.spec.ts',
  'apps/redirect/src/processes.e2e.spec.ts',
  'apps/api/src/read-replica.e2e.spec.ts',
  'libs/testing/src/pg-replica.medium.spec.ts',
  'apps/worker/src/resilience/',
  'apps/api/src/outage.e2e.spec.ts',
  'apps/ingest/src/outage.e2e.spec.ts',
  'apps/api/src/billing/billing-outage.e2e.spec.ts',
  'apps/api/src/conversions/track-outage.e2e.spec.ts',
  'apps/redirect/src/fault.e2e.spec.ts',
  'apps/redirect/src/caddy-tls.e2e.spec.ts',
  'apps/redirect/src/cluster-failover.e2e.spec.ts',
  'apps/redirect/src/password-abuse.e2e.spec.ts',
  'libs/platform/queue/src/redis-cluster.e2e.spec.ts',
  'tools/',
  'apps/api/src/migrations/platform-import.e2e.spec.ts',
  'apps/api/src/hostile-input/route-fuzz.e2e.spec.ts',
  'apps/api/src/mcp/mcp.e2e.spec.ts',
  'apps/api/src/main.e2e.spec.ts',
];

/** What a spec does to the module registry or the process that the next spec of its file would inherit. */
const SHARES_STATE = /jest\.(mock|spyOn|useFakeTimers|replaceProperty)\b|process\.env\.\w+\s*=[^=]|delete process\.env/;

// A renamed or moved spec must be renamed here too, not silently grouped.
for (const s of STANDALONE) if (!existsSync(path.join(root, s))) throw new Error(`tools/scripts/test-groups.js names a spec that does not exist: ${s}`);

/** At most this many specs per generated file, by tier: about a minute of work each. */
const PER_GROUP = { unit: 30, medium: 12, e2e: 8 };

const tierOf = (file) => (file.endsWith('.e2e.spec.ts') ? 'e2e' : file.endsWith('.medium.spec.ts') ? 'medium' : file.endsWith('.spec.ts') ? 'unit' : null);

function specs(dir, found = []) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) specs(rel, found);
    else if (tierOf(rel)) found.push(rel);
  }
  return found;
}

const standalone = (file) =>
  STANDALONE.some((s) => (s.endsWith('/') ? file.startsWith(s) : file === s)) || SHARES_STATE.test(readFileSync(path.join(root, file), 'utf8'));

/** The groups: `{ name, tier, files }`, files relative to the repo root, by tier and project (apps/x, libs/x), and one of the `cluster` project. */
function testGroups() {
  const byKey = new Map();
  for (const file of SEARCHED.flatMap((d) => specs(d)).sort()) {
    if (standalone(file)) continue;
    const tier = tierOf(file);
    // Unit specs by top folder (they load little), the others by project (apps/x, libs/x).
    const key = `${tier}:${file.split('/').slice(0, tier === 'unit' ? 1 : 2).join('-')}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(file);
  }
  const groups = [];
  for (const [key, files] of byKey) {
    if (files.length < 2) continue;
    const [tier, project] = key.split(':');
    const size = PER_GROUP[tier];
    const chunks = Math.ceil(files.length / size);
    for (let i = 0; i < chunks; i++) {
      // Even chunks: 9 files in 8s are 5 and 4, not 8 and 1.
      const part = files.slice(Math.floor((i * files.length) / chunks), Math.floor(((i + 1) * files.length) / chunks));
      groups.push({ name: `${project}${chunks > 1 ? `-${i + 1}` : ''}`, tier, files: part });
    }
  }
  // The cluster project's specs (tools/scripts/cluster-suites.js), but for the standalone ones.
  const { CLUSTER_SUITES } = require('./cluster-suites');
  groups.push({ name: 'redis', tier: 'cluster', files: CLUSTER_SUITES.filter((f) => !standalone(f)) });
  return groups;
}

/**
 * Writes one entry per group into var/test-groups (`<name>.<tier>.spec.js`; unit entries end in
 * `.unit.spec.js`) and answers the groups with their entry paths. Called when jest loads its config.
 */
function writeTestGroups() {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const groups = testGroups();
  for (const g of groups) {
    g.entry = path.join(OUT, `${g.name}.${g.tier}.spec.js`);
    // Each spec inside a describe of its path: its top-level hooks stay its own.
    const lines = g.files.map((f) => `describe(${JSON.stringify(f)}, () => {\n  require(${JSON.stringify(path.join(root, f))});\n});`);
    writeFileSync(g.entry, `// Generated by tools/scripts/test-groups.js: ${g.tier} specs run in one jest module registry.\n${lines.join('\n')}\n`);
  }
  return groups;
}

module.exports = { OUT, writeTestGroups, standalone };
