// jest globalSetup: make sure the migrated template database exists; with TEST_REDIS_CLUSTER=1
// (the cluster CI step, `npm run test:cluster`) also start one 6-node Redis Cluster for the whole
// run and hand its nodes to every test file (testConfig reads TEST_REDIS_CLUSTER_NODES).
module.exports = async function globalSetup() {
  require('../../../tools/scripts/register');
  const { ensureTemplateDatabase } = require('./database');
  await ensureTemplateDatabase();
  if (process.env.TEST_REDIS_CLUSTER === '1' && !process.env.TEST_REDIS_CLUSTER_NODES) {
    const { PrivateRedisCluster } = require('./redis-cluster');
    const cluster = await PrivateRedisCluster.start();
    globalThis.__dlRedisCluster = cluster;
    // Workers are forked after global setup: they inherit this.
    process.env.TEST_REDIS_CLUSTER_NODES = cluster.nodeList;
    // A crashed run must not leave the nodes behind.
    process.once('exit', () => cluster.nodes.forEach((n) => n.proc.exitCode === null && n.proc.kill('SIGKILL')));
  }
};
