// jest setupFile of the `cluster` project (jest.preset.js): every app and client a test file
// makes uses the run's Redis Cluster (testConfig reads TEST_REDIS_CLUSTER_NODES).
if (!process.env.TEST_REDIS_CLUSTER_SHARED_NODES) throw new Error('the cluster project runs with its global setup (cluster-setup.js)');
process.env.TEST_REDIS_CLUSTER_NODES = process.env.TEST_REDIS_CLUSTER_SHARED_NODES;
