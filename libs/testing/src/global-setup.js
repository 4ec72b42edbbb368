// jest globalSetup: make sure the migrated template database exists.
module.exports = async function globalSetup() {
  require('../../../tools/scripts/register');
  const { ensureTemplateDatabase } = require('./database');
  await ensureTemplateDatabase();
};
