module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'templates',
  rootDir: __dirname,
};
