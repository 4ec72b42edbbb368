// jest globalSetup of the `cluster` project (jest.preset.js): the template database, and one
// 6-node Redis Cluster for the whole run. Its nodes go to the project's test files only
// (cluster-tier.js reads TEST_REDIS_CLUSTER_SHARED_NODES); the other tiers of the same run keep
// the single Redis server.
module.exports = async function clusterSetup() {
  require('../../../tools/scripts/register');
  const { ensureTemplateDatabase } = require('./database');
  await ensureTemplateDatabase();
  if (process.env.TEST_REDIS_CLUSTER_SHARED_NODES) return;
  const { PrivateRedisCluster } = require('./redis-cluster');
  const cluster = await PrivateRedisCluster.start();
  globalThis.__dlRedisCluster = cluster;
  // Workers are forked after global setup: they inherit this.
  process.env.TEST_REDIS_CLUSTER_SHARED_NODES = cluster.nodeList;
  // A crashed run must not leave the nodes behind.
  process.once('exit', () => cluster.nodes.forEach((n) => n.proc.exitCode === null && n.proc.kill('SIGKILL')));
};
