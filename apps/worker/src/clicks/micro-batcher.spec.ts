import { MicroBatcher } from './micro-batcher';

describe(MicroBatcher.name, () => {
  it('flushes at maxSize, resolves each caller after its batch, one flush at a time', async () => {
    const batches: number[][] = [];
    let running = 0;
    let maxRunning = 0;
    const b = new MicroBatcher<number>(
      async (items) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 5));
        batches.push(items);
        running--;
      },
      { maxSize: 3, maxWaitMs: 1000, maxConcurrentFlushes: 1 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => b.add(i)));
    expect(batches.flat().sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(batches[0]).toEqual([1, 2, 3]);
    expect(batches.every((x) => x.length <= 3)).toBe(true);
    expect(maxRunning).toBe(1);
  });

  it('flushes a partial batch after maxWaitMs and rejects every caller of a failed batch', async () => {
    let calls = 0;
    const b = new MicroBatcher<number>(
      async () => {
        calls++;
        throw new Error('db down');
      },
      { maxSize: 100, maxWaitMs: 10, maxConcurrentFlushes: 1 },
    );
    const results = await Promise.allSettled([b.add(1), b.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    await b.close();
    await expect(b.add(3)).rejects.toThrow('closed');
  });
});
