import { Module } from '@nestjs/common';
import { ConversionsModule } from '@dl/conversions';
import { AppsRepository } from './apps.repository';
import { AppsService } from './apps.service';
import { AttributionRepository } from './attribution.repository';
import { AttributionService } from './attribution.service';
import { CredentialCache } from './credential-cache';
import { EventBuffer } from './event-buffer';
import { InAppEventsRepository } from './in-app-events.repository';
import { IngestRateLimiter } from './ingest-rate-limiter';
import { IngestRedis } from './ingest-redis';
import { IngestStoreRepository } from './ingest-store.repository';
import { IngestWorkerService } from './ingest-worker.service';
import { IngestService } from './ingest.service';
import { InstallAnswerStore } from './install-answer.store';
import { PixelSitesRepository } from './pixel-sites.repository';
import { PixelSitesService } from './pixel-sites.service';
import { SdkCredentialsService } from './sdk-credentials.service';
import { SdkAuth } from './sdk-auth';

/** Management of apps and pixel sites (api). */
@Module({
  providers: [AppsRepository, AppsService, PixelSitesRepository, PixelSitesService, CredentialCache],
  exports: [AppsService, PixelSitesService],
})
export class SdkManagementModule {}

/** The ingest hot path: credentials, rate limit, attribution, enqueue. */
@Module({
  providers: [
    IngestRedis,
    AppsRepository,
    PixelSitesRepository,
    CredentialCache,
    SdkCredentialsService,
    IngestRateLimiter,
    AttributionRepository,
    AttributionService,
    InstallAnswerStore,
    EventBuffer,
    IngestService,
    SdkAuth,
  ],
  exports: [AttributionService, IngestService, SdkAuth, SdkCredentialsService, IngestRateLimiter],
})
export class SdkIngestModule {}

/** Consumers of the ingest queue (worker): pixel conversions and SDK revenue are sales too. */
@Module({
  imports: [ConversionsModule],
  providers: [IngestStoreRepository, InAppEventsRepository, InstallAnswerStore, IngestWorkerService],
  exports: [IngestWorkerService],
})
export class SdkWorkerModule {}
