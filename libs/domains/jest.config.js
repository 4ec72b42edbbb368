module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'domains',
  rootDir: __dirname,
};
