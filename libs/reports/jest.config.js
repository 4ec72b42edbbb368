module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'reports',
  rootDir: __dirname,
};
