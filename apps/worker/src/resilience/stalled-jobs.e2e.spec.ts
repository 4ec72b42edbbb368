import { appEnv, closeAll, RunningApp, TestEnv } from '@dl/testing';
import { createWorkerApp } from '../app';
import { ClicksProcessor } from '../clicks/clicks.processor';
import { IngestProcessor } from '../ingest/ingest.processor';

describe('stalled jobs of the idempotent queues (worker kill -9)', () => {
  let env: TestEnv, worker: RunningApp;

  beforeAll(async () => ({ env, server: worker } = await appEnv(createWorkerApp)));
  afterAll(() => closeAll(worker, env));

  it.each([
    ['clicks', ClicksProcessor],
    ['ingest', IngestProcessor],
  ] as const)('%s: the running BullMQ worker recovers a stalled job up to 5 times, checking every 10 s', (_queue, type) => {
    const processor = worker.app.get<ClicksProcessor | IngestProcessor>(type);
    expect(processor.worker.opts).toMatchObject({ maxStalledCount: 5, stalledInterval: 10_000 });
    // The lock a dead worker leaves behind still expires after BullMQ's 30 s default.
    expect(processor.worker.opts.lockDuration).toBe(30_000);
  });
});
