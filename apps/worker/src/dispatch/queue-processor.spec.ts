import { WorkerHost } from '@nestjs/bullmq';
import { MetricsService } from '@dl/platform/observability';
import { JOB_NAMES, QueueHandlers, QueueName, Queues } from '@dl/platform/queue';
import { assertOneProcessorPerQueue } from './one-processor-per-queue';
import { QueueProcessor } from './queue-processor';

const metrics = new MetricsService();
const noop = async () => undefined;

/** A processor of `queue` whose handler map is `handlers` (checked by the dispatcher, not the compiler). */
function processorOf(queue: QueueName, handlers: Record<string, () => Promise<unknown>>): QueueProcessor<QueueName> {
  class Probe extends QueueProcessor<QueueName> {
    constructor() {
      super(queue, metrics);
    }
    protected handlers(): QueueHandlers<QueueName> {
      return handlers as unknown as QueueHandlers<QueueName>;
    }
  }
  return new Probe();
}

const everyQueue = () =>
  Object.values(Queues).map((q) => processorOf(q, Object.fromEntries(JOB_NAMES[q].map((name) => [name, noop]))));

describe('the worker dispatcher', () => {
  it('boots with one complete processor per queue', () => {
    const processors = everyQueue();
    expect(() => assertOneProcessorPerQueue(processors)).not.toThrow();
    for (const p of processors) expect(() => p.onModuleInit()).not.toThrow();
  });

  it('refuses a queue without a processor, or with two', () => {
    const processors = everyQueue();
    expect(() => assertOneProcessorPerQueue(processors.filter((p) => p.queue !== Queues.reports))).toThrow(
      'queue "reports" has no processor',
    );
    expect(() => assertOneProcessorPerQueue([...processors, processorOf(Queues.clicks, {})])).toThrow(
      'queue "clicks" has 2 processors',
    );
  });

  it('refuses a consumer that is not a QueueProcessor (a hand-written process())', () => {
    class HandWritten extends WorkerHost {
      async process(): Promise<void> {}
    }
    expect(() => assertOneProcessorPerQueue([...everyQueue(), new HandWritten()])).toThrow('HandWritten is not a QueueProcessor');
  });

  it('refuses a handler map that misses a job name or has an unknown one', () => {
    expect(() => processorOf(Queues.reports, { 'reports.monthly': noop }).onModuleInit()).toThrow(
      'missing [reports.monthly-run]',
    );
    expect(() =>
      processorOf(Queues.webhookDrains, { 'webhook.drain': noop, 'webhook.other': noop }).onModuleInit(),
    ).toThrow('unknown [webhook.other]');
  });
});
