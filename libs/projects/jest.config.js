module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'projects',
  rootDir: __dirname,
};
