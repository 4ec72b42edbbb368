import { Module } from '@nestjs/common';
import { FdlShortLinksService } from './fdl/fdl-short-links.service';
import { LinksImportService } from './import/links-import.service';
import { LinkEventsService } from './link-events.service';
import { LinkWriter } from './link-writer';
import { LinkCreation } from './link-creation';
import { LinkDomains } from './link-domains';
import { DomainsModule } from '@dl/domains';
import { SafetyModule } from '@dl/safety';
import { LinkScreening } from './link-screening';
import { LinksBulkService } from './links-bulk.service';
import { LinksRepository } from './links.repository';
import { LinksPg } from './links-pg';
import { LinksService } from './links.service';
import { QrService } from './qr.service';
import { QrRenderPool } from './qr-render-pool';
import { registerLinkValidationMessages } from './validation-messages';

registerLinkValidationMessages();

/** Links use cases (needs PlatformModule and QueueModule in the app). */
@Module({
  imports: [DomainsModule, SafetyModule],
  providers: [
    LinksRepository,
    LinksPg,
    LinkDomains,
    LinkWriter,
    LinkCreation,
    LinkScreening,
    LinkEventsService,
    LinksService,
    LinksBulkService,
    LinksImportService,
    FdlShortLinksService,
    QrService,
    QrRenderPool,
  ],
  exports: [LinksService, LinksBulkService, LinksImportService, FdlShortLinksService, QrService, LinkEventsService, LinkScreening],
})
export class LinksModule {}
