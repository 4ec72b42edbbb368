module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'platform-batch',
  rootDir: __dirname,
};
