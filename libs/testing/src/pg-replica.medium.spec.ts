import { Client } from 'pg';
import { PgReplica } from './pg-replica';
import { PrivatePostgres } from './private-servers';

async function one<T>(url: string, sql: string): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0] as T;
  } finally {
    await client.end();
  }
}

describe(PgReplica.name, () => {
  let pg: PrivatePostgres;
  let replica: PgReplica;

  beforeAll(async () => {
    pg = await PrivatePostgres.create();
    replica = await PgReplica.create(pg);
  }, 120_000);

  afterAll(async () => {
    await replica?.drop();
    await pg?.drop();
  }, 60_000);

  it('streams the primary: in recovery, read-only, replays a write; stopped by PID', async () => {
    expect(await one(replica.url(), 'SELECT pg_is_in_recovery() AS r')).toEqual({ r: true });
    await one(pg.url(), 'CREATE TABLE t AS SELECT 42 AS n');
    await replica.caughtUp();
    expect(await one(replica.url(), 'SELECT n FROM t')).toEqual({ n: 42 });
    await expect(one(replica.url(), 'INSERT INTO t VALUES (1)')).rejects.toMatchObject({ code: '25006' });

    const pid = replica.pid;
    expect(pid).toEqual(expect.any(Number));
    await replica.stop();
    expect(replica.pid).toBeNull();
    expect(() => process.kill(pid as number, 0)).toThrow();
    await replica.start();
    expect(await one(replica.url(), 'SELECT n FROM t')).toEqual({ n: 42 });
  }, 120_000);
});
