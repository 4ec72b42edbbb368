import { Module } from '@nestjs/common';
import { SdkWorkerModule } from '@dl/sdk';
import { IngestProcessor } from './ingest.processor';

/** The worker's consumer of SDK and pixel ingestion. */
@Module({
  imports: [SdkWorkerModule],
  providers: [IngestProcessor],
})
export class IngestWorkerModule {}
