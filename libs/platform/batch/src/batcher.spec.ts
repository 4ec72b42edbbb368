import fc from 'fast-check';
import { Batcher, BatcherOptions } from './batcher';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A writer that records its batches, the most batches in flight, and fails on demand. */
function recorder<T>(opts: { latencyMs?: (n: number) => number; fail?: (n: number) => boolean } = {}) {
  const started: T[][] = [];
  const written: T[][] = [];
  let running = 0;
  let maxRunning = 0;
  const write = async (items: T[]): Promise<T[]> => {
    const n = started.push(items) - 1;
    running++;
    maxRunning = Math.max(maxRunning, running);
    try {
      await sleep(opts.latencyMs?.(n) ?? 0);
      if (opts.fail?.(n)) throw new Error(`write ${n} failed`);
      written.push(items);
      return items;
    } finally {
      running--;
    }
  };
  return { write, started, written, maxRunning: () => maxRunning };
}

describe(Batcher.name, () => {
  it('group commit: the first item goes alone, the ones arriving during its write share the next, each caller gets its own result', async () => {
    const w = recorder<number>({ latencyMs: () => 5 });
    const b = new Batcher<number, string>({ write: async (xs) => (await w.write(xs)).map((x) => `r${x}`), maxSize: 3 });
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((x) => b.add(x)));
    expect(results).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(w.started).toEqual([[1], [2, 3, 4], [5, 6]]);
    expect(w.maxRunning()).toBe(1);
  });

  it('waits maxWaitMs for a partial batch, leaves at once when full', async () => {
    const w = recorder<number>();
    const b = new Batcher<number, number>({ write: w.write, maxSize: 2, maxWaitMs: 30 });
    const t0 = Date.now();
    void b.add(1);
    void b.add(2);
    expect(w.started).toEqual([[1, 2]]);
    await b.add(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    expect(w.started).toEqual([[1, 2], [3]]);
  });

  it('bounds a batch by the items\' sizes, never splitting an item', async () => {
    const w = recorder<string>();
    const b = new Batcher<string, string>({ write: w.write, maxSize: 5, sizeOf: (s) => s.length, maxWaitMs: 1000 });
    const added = ['ab', 'cd', 'efg', 'h', 'ijklmnop'].map((s) => b.add(s));
    await b.flush();
    await Promise.all(added);
    expect(w.started).toEqual([['ab', 'cd', 'efg'], ['h', 'ijklmnop']]);
  });

  it('rejects every caller of a failed batch and keeps going; close drains then refuses', async () => {
    const w = recorder<number>({ fail: (n) => n === 0 });
    const b = new Batcher<number, number>({ write: w.write, maxSize: 2, maxWaitMs: 5, closedError: () => new Error('closed for the night') });
    const results = await Promise.allSettled([1, 2, 3].map((x) => b.add(x)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    const last = b.add(4);
    await b.close();
    await expect(last).resolves.toBe(4);
    await expect(b.add(5)).rejects.toThrow('closed for the night');
    expect(() => b.push(6)).toThrow('closed for the night');
  });

  it('retry mode: a failed batch goes back to the front and is written later, in order; flush stops at the failure', async () => {
    const w = recorder<number>({ fail: (n) => n === 0 });
    const b = new Batcher<number, number>({ write: w.write, maxSize: 10, maxWaitMs: 1, retryDelayMs: 20 });
    [1, 2].forEach((x) => b.push(x));
    await b.flush();
    expect(w.written).toEqual([]);
    expect(b.waiting).toBe(2);
    b.push(3);
    const t0 = Date.now();
    while (!w.written.length && Date.now() - t0 < 5000) await sleep(5);
    // Not before the retry delay, and the items that came meanwhile in the same batch, in order.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(15);
    expect(w.written).toEqual([[1, 2, 3]]);
  });

  it('addAll: one caller for items spanning batches settles after the last of them; a failed batch rejects it only once all settled', async () => {
    const w = recorder<number>({ latencyMs: (n) => (n === 1 ? 40 : 1), fail: (n) => n === 0 });
    const b = new Batcher<number, number>({ write: w.write, maxSize: 2, maxWaitMs: 5, maxConcurrent: 2, closedError: () => new Error('closed') });
    let settledAt = 0;
    const all = b.addAll([1, 2, 3, 4]).finally(() => (settledAt = w.written.length));
    await expect(all).rejects.toThrow('write 0 failed');
    // The second batch (40 ms, after the failure) was written before the caller heard of the failure.
    expect(w.written).toEqual([[3, 4]]);
    expect(settledAt).toBe(1);

    await expect(b.addAll([5, 6, 7])).resolves.toBeUndefined();
    expect(w.written.slice(1)).toEqual([[5, 6], [7]]);
    await expect(b.addAll([])).resolves.toBeUndefined();
    await b.close();
    await expect(b.addAll([8])).rejects.toThrow('closed');
  });

  it('a write that throws synchronously fails its batch like a rejection', async () => {
    const b = new Batcher<number>({
      write: () => {
        throw new Error('sync');
      },
    });
    await expect(b.add(1)).rejects.toThrow('sync');
  });

  it('property: every item is written exactly once, in order, within the size and concurrency bounds, whatever the timing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          maxSize: fc.integer({ min: 1, max: 8 }),
          maxWaitMs: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
          maxConcurrent: fc.integer({ min: 1, max: 3 }),
          retry: fc.boolean(),
          // Per item: the pause before it arrives (ms), whether it waits for its result.
          arrivals: fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 40 }),
          latencies: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 10 }),
          failures: fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }),
        }),
        async ({ maxSize, maxWaitMs, maxConcurrent, retry, arrivals, latencies, failures }) => {
          // In retry mode a batch fails at most a few times (else the property would never end).
          const w = recorder<number>({
            latencyMs: (n) => latencies[n % latencies.length],
            fail: (n) => n < 6 && failures[n % failures.length],
          });
          const options: BatcherOptions<number, number> = { write: w.write, maxSize, maxWaitMs, maxConcurrent };
          // Retried batches stay in order only when one batch is written at a time.
          if (retry) Object.assign(options, { retryDelayMs: 1, maxConcurrent: 1 });
          const b = new Batcher<number, number>(options);
          const awaited: Array<Promise<PromiseSettledResult<number>>> = [];
          for (const [i, [pause, waits]] of arrivals.entries()) {
            if (pause) await sleep(pause);
            if (waits && !retry) awaited.push(b.add(i).then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason })));
            else b.push(i);
          }
          await b.close();
          while (b.waiting) await b.close();
          const outcomes = await Promise.all(awaited);

          const writtenItems = w.written.flat();
          const startedItems = w.started.flat();
          // Each item in at most one successful write; in retry mode every item exactly once, in order.
          expect(new Set(writtenItems).size).toBe(writtenItems.length);
          if (retry) expect(writtenItems).toEqual(arrivals.map((_, i) => i));
          else expect(startedItems).toEqual(arrivals.map((_, i) => i));
          // Batches are taken in arrival order and stay within the bounds.
          for (const batch of w.started) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(maxSize);
            expect(batch).toEqual([...batch].sort((x, y) => x - y));
          }
          expect(w.maxRunning()).toBeLessThanOrEqual(options.maxConcurrent ?? 1);
          // A caller's promise says whether its item was written, with its own result.
          const written = new Set(writtenItems);
          for (const outcome of outcomes) {
            if (outcome.status === 'fulfilled') expect(written.has(outcome.value)).toBe(true);
          }
          expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBe(
            arrivals.filter(([, waits], i) => waits && !retry && written.has(i)).length,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
