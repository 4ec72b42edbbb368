import { Module } from '@nestjs/common';
import { ClickIngestRepository } from './click-ingest.repository';
import { ClickIngestService } from './click-ingest.service';
import { ClickPartitionsService, ClickRetentionRepository, ClickRetentionService } from './click-retention';
import { LinkClickedSubscriptions } from './webhook-subscriptions';

/** The click pipeline's write side (needs PlatformModule and QueueModule in the app). */
@Module({
  providers: [ClickIngestRepository, ClickIngestService, LinkClickedSubscriptions, ClickRetentionRepository, ClickRetentionService, ClickPartitionsService],
  exports: [ClickIngestService, ClickRetentionService, ClickPartitionsService],
})
export class ClicksModule {}
