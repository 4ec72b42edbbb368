module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'worker',
  rootDir: __dirname,
};
