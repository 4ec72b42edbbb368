import { bisectWrite } from './bisect-write';
import { isDataError, sqlState } from './errors';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
/** The shape Prisma 7 gives a failed raw query through the pg driver adapter. */
const prismaError = (originalCode: string) =>
  Object.assign(new Error('Raw query failed'), { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode, originalMessage: 'x' } } } });

describe('isDataError', () => {
  it.each(['22021', '22P05', '22001', '22003', '22P02', '23502', '23503', '23505', '23514'])('%s (class 22/23) is a data error', (code) => {
    expect(isDataError(pgError(code))).toBe(true);
    expect(isDataError(prismaError(code))).toBe(true);
  });

  it.each(['08006', '08001', '57P01', '57P02', '57P03', '53300', '40001', '40P01', 'P0001', 'XX000'])('%s is not (rethrown, never dead-lettered)', (code) => {
    expect(isDataError(pgError(code))).toBe(false);
    expect(isDataError(prismaError(code))).toBe(false);
  });

  it('connection errors without a SQLSTATE, timeouts and plain errors are not', () => {
    expect(isDataError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isDataError(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isDataError(new Error('timeout'))).toBe(false);
    expect(isDataError(null)).toBe(false);
    expect(isDataError('22021')).toBe(false);
  });

  it('reads the SQLSTATE through a cause chain, and never takes a Prisma code for one', () => {
    expect(sqlState(new Error('wrapped', { cause: pgError('22021') }))).toBe('22021');
    expect(sqlState(prismaError('22021'))).toBe('22021');
    expect(sqlState({ code: 'P2010' })).toBeNull();
  });
});

describe('bisectWrite', () => {
  /** A fake store: a write fails whole (like a transaction) when it holds a poison item. */
  function store(poison: Set<number>, error: (n: number) => Error = () => pgError('22021')) {
    const committed: number[] = [];
    let writes = 0;
    const write = async (batch: number[]) => {
      writes++;
      const bad = batch.find((n) => poison.has(n));
      if (bad !== undefined) throw error(bad);
      committed.push(...batch);
      return batch.length;
    };
    return { committed, write, writes: () => writes };
  }

  it('isolates every poison item, stores every other item exactly once', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const poison = new Set([3, 500, 501, 999]);
    const s = store(poison);
    const poisoned: number[] = [];
    const results = await bisectWrite(items, s.write, { poisoned: async (n) => void poisoned.push(n) });
    expect(poisoned.sort((a, b) => a - b)).toEqual([3, 500, 501, 999]);
    expect(s.committed.sort((a, b) => a - b)).toEqual(items.filter((n) => !poison.has(n)));
    expect(results.reduce((a, b) => a + b, 0)).toBe(996);
    expect(s.writes()).toBeLessThan(4 * 2 * 10 + 2);
  });

  it('one write when nothing is wrong; nothing at all for an empty batch', async () => {
    const s = store(new Set());
    expect(await bisectWrite([1, 2, 3], s.write, { poisoned: async () => undefined })).toEqual([3]);
    expect(s.writes()).toBe(1);
    expect(await bisectWrite([], s.write, { poisoned: async () => undefined })).toEqual([]);
  });

  it('an infrastructure error is rethrown at once: nothing is poisoned, nothing split', async () => {
    const s = store(new Set([5]), () => pgError('57P01'));
    const poisoned = jest.fn();
    await expect(bisectWrite([1, 5, 9], s.write, { poisoned })).rejects.toMatchObject({ code: '57P01' });
    expect(poisoned).not.toHaveBeenCalled();
    expect(s.writes()).toBe(1);
  });
});
