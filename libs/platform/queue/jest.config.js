module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'platform-queue',
  rootDir: __dirname,
};
