module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'redirect',
  rootDir: __dirname,
};
