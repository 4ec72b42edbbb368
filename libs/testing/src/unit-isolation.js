// jest setupFile of the unit tier (jest.preset.js): a unit spec has no database and no Redis, so
// every address the harness or an app would use points at a closed port. A spec that needs them
// fails at once and belongs in *.medium.spec.ts or *.e2e.spec.ts.
const CLOSED = '127.0.0.1:9';
process.env.TEST_DATABASE_URL = `postgresql://postgres@${CLOSED}/unit-tests-have-no-database`;
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
process.env.TEST_REDIS_URL = `redis://${CLOSED}`;
process.env.REDIS_URL = process.env.TEST_REDIS_URL;
delete process.env.TEST_REDIS_CLUSTER_NODES;
delete process.env.REDIS_CLUSTER_NODES;
