/** A promise that did not settle within its bound (`withTimeout`). */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';

  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/**
 * `promise`, bounded: it settles as `promise` does, or rejects once `ms` passed first, with
 * `onTimeout()` when given (a caller's own error type), else a TimeoutError. The timer is
 * cleared as soon as `promise` settles and never keeps the process alive; `promise` is not
 * cancelled, and its late rejection is handled (no unhandled rejection).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error = () => new TimeoutError(ms)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
