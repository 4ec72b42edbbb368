// jest globalSetup of the medium and e2e tiers: make sure the migrated template database exists.
module.exports = async function globalSetup() {
  require('../../../tools/scripts/register');
  const { ensureTemplateDatabase } = require('./database');
  await ensureTemplateDatabase();
};
