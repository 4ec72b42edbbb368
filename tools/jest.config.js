// tools/db is its own project (db-migrate).
module.exports = require('../jest.preset.js').projectConfig(__dirname, { testPathIgnorePatterns: ['/node_modules/', '<rootDir>/db/'] });
