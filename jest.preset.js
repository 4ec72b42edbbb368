// Shared jest settings and the three test tiers, selected by file suffix:
//   unit    *.spec.ts          no database, no Redis, no network; seconds
//   medium  *.medium.spec.ts   services and repositories against real Postgres and Redis
//   e2e     *.e2e.spec.ts      apps over HTTP with real workers
// SWC transpiles TypeScript (type checking is `npm run typecheck`) with the options and path
// aliases of swc.config.js. Only medium and e2e prepare the migrated template database that
// each test file clones; the unit tier points every Postgres and Redis address at a closed port.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper } = require('./swc.config');

const root = __dirname;
const { sourceMaps: _ignored, ...jestSwc } = swcOptions;

/** ESM-only dependencies: the OIDC client and provider of single sign-on (decisions §25) and theirs. */
const ESM_PACKAGES = ['openid-client', 'oauth4webapi', 'jose', 'oidc-provider'];

const base = {
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...jestSwc, sourceMaps: 'inline' }],
    // ESM-only packages (node runs them through require(esm); jest's module registry cannot): to CommonJS.
    [`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: ['@swc/jest', { ...jestSwc, jsc: { ...jestSwc.jsc, parser: { syntax: 'ecmascript' } }, sourceMaps: false }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: jestModuleNameMapper,
  setupFiles: ['reflect-metadata'],
  testTimeout: 30000,
};

const services = {
  globalSetup: path.join(root, 'libs/testing/src/global-setup.js'),
  globalTeardown: path.join(root, 'libs/testing/src/global-teardown.js'),
};

const TIERS = {
  unit: {
    testMatch: ['**/*.spec.ts', '!**/*.medium.spec.ts', '!**/*.e2e.spec.ts'],
    setupFiles: [...base.setupFiles, path.join(root, 'libs/testing/src/unit-isolation.js')],
  },
  medium: { testMatch: ['**/*.medium.spec.ts'], ...services },
  e2e: { testMatch: ['**/*.e2e.spec.ts'], ...services },
};

/**
 * One jest project per tier, each named after its tier so `--selectProjects unit` picks it.
 * `options` are the tier-independent settings of the caller (rootDir, roots, ...).
 */
function tierProjects(options) {
  return Object.entries(TIERS).map(([tier, settings]) => ({ ...base, ...settings, ...options, displayName: tier }));
}

/**
 * The tiers of the whole run (`npm test`): the specs of tools/scripts/test-groups.js run from
 * generated entries in var/test-groups, several per jest file, and are skipped as files of their own.
 */
function groupedTierProjects(options) {
  const { OUT, writeTestGroups } = require('./tools/scripts/test-groups');
  const groups = writeTestGroups().filter((g) => g.tier !== 'cluster');
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const grouped = groups.flatMap((g) => g.files.map((f) => `^${escape(path.join(root, f))}$`));
  return tierProjects({ ...options, roots: [...options.roots, OUT] }).map((project) => ({
    ...project,
    testMatch: [...project.testMatch, `${OUT}/*.${project.displayName}.spec.js`],
    testPathIgnorePatterns: [...base.testPathIgnorePatterns, ...grouped],
  }));
}

/**
 * The `cluster` project (decisions §18): the specs of tools/scripts/cluster-suites.js again, on one
 * 6-node Redis Cluster its global setup starts. In the same jest run as the tiers (`npm test`), so
 * jest schedules them beside the rest instead of after it; `npm run test:cluster` runs it alone.
 */
function clusterProject(options, grouped = false) {
  const { CLUSTER_SUITES } = require('./tools/scripts/cluster-suites');
  const { OUT, standalone } = require('./tools/scripts/test-groups');
  // Grouped (after groupedTierProjects wrote the entries): one entry, and the standalone specs.
  const specs = grouped ? [path.join(OUT, 'redis.cluster.spec.js'), ...CLUSTER_SUITES.filter(standalone).map((s) => path.join(root, s))] : CLUSTER_SUITES.map((s) => path.join(root, s));
  return {
    ...base,
    ...options,
    ...(grouped ? { roots: [...options.roots, OUT] } : {}),
    displayName: 'cluster',
    testMatch: specs,
    globalSetup: path.join(root, 'libs/testing/src/cluster-setup.js'),
    globalTeardown: services.globalTeardown,
    setupFiles: [...base.setupFiles, path.join(root, 'libs/testing/src/cluster-tier.js')],
  };
}

/** A project's jest.config.js: its tests in the three tiers (`nx run <project>:test:unit`). */
function projectConfig(rootDir, options = {}) {
  return { testTimeout: base.testTimeout, projects: tierProjects({ rootDir, ...options }) };
}

module.exports = { TIERS: Object.keys(TIERS), tierProjects, groupedTierProjects, clusterProject, projectConfig };
