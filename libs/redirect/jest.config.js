module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'redirect-edge',
  rootDir: __dirname,
};
