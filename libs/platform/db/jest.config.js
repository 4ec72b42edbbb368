module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'platform-db',
  rootDir: __dirname,
};
