module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'links',
  rootDir: __dirname,
};
