// Browser tests of the dashboard: Debian's Chromium driven by playwright-core against the
// real api (serving a fresh build at /app), redirect and worker apps.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, { roots: ['<rootDir>/test'] });
