import { Logger } from '@nestjs/common';
import { infraDependency, isInfraError, OUTAGE_WARNING_INTERVAL_MS, reportOutage, reportRecovered } from './outage';

describe('infrastructure errors', () => {
  const pg = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'postgres'],
    ['administrator shutdown (57P01)', pg('57P01', 'terminating connection due to administrator command'), 'postgres'],
    ['starting up (57P03)', pg('57P03', 'the database system is starting up'), 'postgres'],
    ['SQLSTATE class 08', pg('08006'), 'postgres'],
    ['a terminated connection', new Error('Connection terminated unexpectedly'), 'postgres'],
    ['a pool ended at shutdown', new Error('Cannot use a pool after calling end on the pool'), 'postgres'],
    ['Prisma P1001', pg('P1001', "Can't reach database server at 127.0.0.1:5432"), 'postgres'],
    ['Prisma raw query failing to connect', pg('P2010', "Raw query failed. Code: `N/A`. Message: `Can't reach database server`"), 'postgres'],
    ['a driver adapter error', Object.assign(new Error('x'), { cause: { kind: 'DatabaseNotReachable' } }), 'postgres'],
    ['ioredis offline', new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'redis'],
    ['ioredis closed', new Error('Connection is closed.'), 'redis'],
    ['a queue add timing out', Object.assign(new Error('Queue "clicks" did not accept the job in time'), { name: 'QueueTimeoutError' }), 'redis'],
  ])('%s is an infrastructure error', (_name, err, dependency) => {
    expect(isInfraError(err)).toBe(true);
    expect(infraDependency(err, dependency === 'postgres' ? 'postgres' : 'redis')).toBe(dependency);
  });

  it.each([
    ['a NUL Postgres refuses (22021)', pg('22021', 'invalid byte sequence for encoding "UTF8": 0x00')],
    ['a unique violation', pg('23505')],
    ['a Prisma unique violation', pg('P2002')],
    ['a programming error', new TypeError('x is not a function')],
    ['not an error', 'boom'],
    ['null', null],
  ])('%s is not', (_name, err) => {
    expect(isInfraError(err)).toBe(false);
  });
});

describe('reportOutage', () => {
  it('warns once per dependency per 30 s, then again with the count folded in, and logs the recovery once', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const t0 = 1_000_000_000;
    for (let i = 0; i < 1000; i++) reportOutage('postgres', new Error('down'), 'test', t0 + i);
    reportOutage('redis', new Error('down'), 'test', t0);
    expect(warn).toHaveBeenCalledTimes(2);
    reportOutage('postgres', new Error('down'), 'test', t0 + OUTAGE_WARNING_INTERVAL_MS);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[2][0]).toMatchObject({ dependency: 'postgres', suppressed: 999 });
    reportRecovered('postgres');
    reportRecovered('postgres');
    expect(log).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    log.mockRestore();
  });
});
