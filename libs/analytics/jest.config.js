module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'analytics',
  rootDir: __dirname,
};
