module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'platform-observability',
  rootDir: __dirname,
};
