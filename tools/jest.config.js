module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'tools',
  rootDir: __dirname,
  // tools/db is its own project (db-migrate).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/db/'],
};
