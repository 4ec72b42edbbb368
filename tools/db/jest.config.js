module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'db-migrate',
  rootDir: __dirname,
};
