import { BullModule } from '@nestjs/bullmq';
import { Global, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { reportOutage } from '@dl/platform/observability';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { DeadLetters } from './dead-letters';
import { Queues } from './jobs';
import { bullOptions, JobQueue } from './queue.service';

const queueRegistrations = BullModule.registerQueue(...Object.values(Queues).map((name) => ({ name })));

/** Redis down: one warning every 30 s for all queues (`reportOutage`) instead of BullMQ's error per reconnect attempt. */
@Injectable()
class QueueErrorReporter implements OnModuleInit {
  constructor(private readonly jobs: JobQueue) {}

  onModuleInit(): void {
    for (const name of Object.values(Queues)) {
      this.jobs.queue(name).on('error', (err: Error) => reportOutage('redis', err, `queue ${name}`));
    }
  }
}

/** BullMQ (through @nestjs/bullmq) on the app's Redis, with every queue of the registry. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => bullOptions(config),
    }),
    queueRegistrations,
  ],
  providers: [JobQueue, DeadLetters, QueueErrorReporter],
  exports: [JobQueue, DeadLetters, queueRegistrations],
})
export class QueueModule {}
