import nx from '@nx/eslint-plugin';
import tsParser from '@typescript-eslint/parser';

// Module boundaries (../shared/style.md): apps → domain, platform; domain → domain,
// platform; platform → platform; a published package (type:package) → nothing; the testing
// library only from tests.
const production = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:platform'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:platform'] },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:tools'] },
  // tools/ is the composition root: `npm start`, the operator CLI.
  { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['type:app', 'type:domain', 'type:platform', 'type:tools'] },
  // A published package (sdk-client): self-contained, it imports no project of the repo but
  // another package.
  { sourceTag: 'type:package', onlyDependOnLibsWithTags: ['type:package'] },
];
// Tests may also use the harness and boot apps; a package's tests drive the real services.
const tests = production.map((c) => ({
  ...c,
  onlyDependOnLibsWithTags: [
    ...new Set([...c.onlyDependOnLibsWithTags, ...(c.sourceTag === 'type:package' ? ['type:domain', 'type:platform'] : []), 'type:testing', 'type:app', 'type:tools']),
  ],
}));

// Tests and the tools (composition root) may boot apps through their factories (`@dl/apps/<app>`).
const boundaries = (depConstraints, allow = []) => ({
  '@nx/enforce-module-boundaries': [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow,
      depConstraints,
      banTransitiveDependencies: false,
      // Platform and domain libraries' own specs use the test harness, and the harness seeds
      // through domain services (identity, fixtures, kits): a test-only edge, not a production
      // cycle (production code may not import the harness at all).
      ignoredCircularDependencies: [
        ['tag:type:platform', 'testing'],
        ['tag:type:domain', 'testing'],
      ],
    },
  ],
});

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'var/**', 'coverage/**', '**/*.js', '**/*.mjs', '!**/jest.config.js'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: 'module' },
    rules: boundaries(production),
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: boundaries(tests, ['@dl/apps/*']),
  },
];
