module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'clicks',
  rootDir: __dirname,
};
