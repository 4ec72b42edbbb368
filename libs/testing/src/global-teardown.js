// jest globalTeardown: stops the Redis Cluster that cluster-setup.js started (by PID).
module.exports = async function globalTeardown() {
  const cluster = globalThis.__dlRedisCluster;
  if (!cluster) return;
  globalThis.__dlRedisCluster = undefined;
  delete process.env.TEST_REDIS_CLUSTER_SHARED_NODES;
  await cluster.stop();
};
