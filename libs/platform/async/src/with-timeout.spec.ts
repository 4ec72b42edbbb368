import { TimeoutError, withTimeout } from './with-timeout';

describe(withTimeout.name, () => {
  afterEach(() => jest.useRealTimers());

  it('settles as the promise does when it is in time', async () => {
    await expect(withTimeout(Promise.resolve(7), 1000)).resolves.toBe(7);
    const err = new Error('refused');
    await expect(withTimeout(Promise.reject(err), 1000)).rejects.toBe(err);
  });

  it('rejects with a TimeoutError once the bound passed', async () => {
    jest.useFakeTimers();
    const bounded = withTimeout(new Promise(() => undefined), 250);
    jest.advanceTimersByTime(250);
    await expect(bounded).rejects.toEqual(expect.objectContaining({ name: 'TimeoutError', ms: 250, message: 'timed out after 250 ms' }));
    await expect(bounded).rejects.toBeInstanceOf(TimeoutError);
  });

  it("rejects with the caller's error when given one", async () => {
    jest.useFakeTimers();
    class QueueDown extends Error {}
    const bounded = withTimeout(new Promise(() => undefined), 10, () => new QueueDown('queue did not answer'));
    jest.advanceTimersByTime(10);
    await expect(bounded).rejects.toEqual(new QueueDown('queue did not answer'));
  });

  it('clears its timer once the promise settled (nothing left pending)', async () => {
    jest.useFakeTimers();
    await withTimeout(Promise.resolve('done'), 60_000);
    expect(jest.getTimerCount()).toBe(0);
  });
});
