module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'platform-redis',
  rootDir: __dirname,
};
