import { isDataError } from './errors';

export interface BisectOptions<T> {
  /** Called for an item that fails alone with a data error: record it (dead letter) and drop it. */
  poisoned: (item: T, err: unknown) => Promise<void>;
  /** Is this error about the data (split and retry) or not (rethrow)? Default: isDataError. */
  isDataError?: (err: unknown) => boolean;
}

/**
 * Poison-pill isolation for a batch write that mixes tenants (decisions §14): `write` is tried
 * on the whole batch (one transaction, all or nothing); when the database refuses the data,
 * the batch is split in halves and each half retried, down to the single item that fails,
 * which goes to `poisoned` and is dropped. Any other error (connection lost, shutdown …) is
 * rethrown at once, with nothing dead-lettered, so the job is retried whole. Returns the
 * results of the writes that committed (in item order); each item is in exactly one of them
 * or was poisoned, so nothing is lost or written twice. k poison pills in n items cost about
 * 2·k·log2(n) extra writes.
 */
export async function bisectWrite<T, R>(items: T[], write: (batch: T[]) => Promise<R>, options: BisectOptions<T>): Promise<R[]> {
  const dataError = options.isDataError ?? isDataError;
  const results: R[] = [];
  const run = async (batch: T[]): Promise<void> => {
    if (!batch.length) return;
    try {
      results.push(await write(batch));
    } catch (err) {
      if (!dataError(err)) throw err;
      if (batch.length === 1) return options.poisoned(batch[0], err);
      const half = Math.ceil(batch.length / 2);
      await run(batch.slice(0, half));
      await run(batch.slice(half));
    }
  };
  await run(items);
  return results;
}
