import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { DeadLetters } from './dead-letters';
import { Queues } from './jobs';
import { bullOptions, JobQueue } from './queue.service';

const queueRegistrations = BullModule.registerQueue(...Object.values(Queues).map((name) => ({ name })));

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
  providers: [JobQueue, DeadLetters],
  exports: [JobQueue, DeadLetters, queueRegistrations],
})
export class QueueModule {}
