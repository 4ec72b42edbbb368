module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'event-analytics',
  rootDir: __dirname,
};
