import { Module } from '@nestjs/common';
import { ClickIngestRepository } from './click-ingest.repository';
import { ClickIngestService } from './click-ingest.service';
import { ClickRetentionRepository, ClickRetentionService } from './click-retention';
import { LinkClickedSubscriptions } from './webhook-subscriptions';

/** The click pipeline's write side (needs PlatformModule and QueueModule in the app). */
@Module({
  providers: [ClickIngestRepository, ClickIngestService, LinkClickedSubscriptions, ClickRetentionRepository, ClickRetentionService],
  exports: [ClickIngestService, ClickRetentionService],
})
export class ClicksModule {}
