// Shared jest settings for every project: SWC transpiles TypeScript (type checking
// is `npm run typecheck`), aliases resolve like tsconfig.base.json, and a migrated
// template database is prepared once so each test file clones its own database.
const path = require('node:path');
const { swcOptions } = require('./tools/scripts/swc-options');

const root = __dirname;
const { sourceMaps: _ignored, ...jestSwc } = swcOptions;

module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...jestSwc, sourceMaps: 'inline' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@dl/tools/db$': path.join(root, 'tools/db/migrate.ts'),
    '^@dl/apps/([^/]+)$': path.join(root, 'apps/$1/src/app.ts'),
    '^@dl/platform/([^/]+)$': path.join(root, 'libs/platform/$1/src/index.ts'),
    '^@dl/([^/]+)$': path.join(root, 'libs/$1/src/index.ts'),
  },
  globalSetup: path.join(root, 'libs/testing/src/global-setup.js'),
  globalTeardown: path.join(root, 'libs/testing/src/global-teardown.js'),
  setupFiles: ['reflect-metadata'],
  testTimeout: 30000,
};
