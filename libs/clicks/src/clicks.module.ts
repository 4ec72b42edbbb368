import { Module } from '@nestjs/common';
import { ClickPipeline } from './click-pipeline';
import { ClickPartitionsService, ClickRetentionRepository, ClickRetentionService } from './click-retention';
import { ClickWriteRepository } from './click-write.repository';
import { ClickWriter } from './click-writer';
import { LinkClickedSubscriptions } from './webhook-subscriptions';

/** The click pipeline and the retention of raw clicks (needs the config, DbModule and QueueModule in the app). */
@Module({
  providers: [ClickWriteRepository, ClickWriter, ClickPipeline, LinkClickedSubscriptions, ClickRetentionRepository, ClickRetentionService, ClickPartitionsService],
  exports: [ClickPipeline, ClickRetentionService, ClickPartitionsService],
})
export class ClicksModule {}
