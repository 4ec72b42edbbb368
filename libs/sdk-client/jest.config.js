module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'sdk-client',
  rootDir: __dirname,
};
