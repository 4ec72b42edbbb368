import { PasswordCheckQueue } from './password-check-queue';

describe(PasswordCheckQueue.name, () => {
  it('runs at most `concurrency` at once, queues up to `capacity`, refuses the rest without running them', async () => {
    const q = new PasswordCheckQueue(2, 3);
    let active = 0;
    let peak = 0;
    let ran = 0;
    const releases: Array<() => void> = [];
    const check = () =>
      new Promise<string>((resolve) => {
        ran++;
        active++;
        peak = Math.max(peak, active);
        releases.push(() => {
          active--;
          resolve('done');
        });
      });
    const results = Array.from({ length: 10 }, () => q.run(check));
    await new Promise((r) => setImmediate(r));
    expect(q.load).toEqual({ running: 2, waiting: 3 });
    expect(ran).toBe(2);
    // Five refused at once.
    const settled = await Promise.all(results.slice(5));
    expect(settled).toEqual([null, null, null, null, null]);
    while (releases.length || ran < 5) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(results.slice(0, 5))).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(peak).toBe(2);
    expect(q.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when a check throws', async () => {
    const q = new PasswordCheckQueue(1, 0);
    await expect(q.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await q.run(async () => 1)).toBe(1);
  });
});
