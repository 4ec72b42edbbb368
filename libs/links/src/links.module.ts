import { Module } from '@nestjs/common';
import { LinksImportService } from './import/links-import.service';
import { LinkEventsService } from './link-events.service';
import { LinkLookup } from './link-lookup.service';
import { LinkWriter } from './link-writer';
import { LinkDomains } from './link-domains';
import { DomainsModule } from '@dl/domains';
import { LinksBulkService } from './links-bulk.service';
import { LinksRepository } from './links.repository';
import { LinksPg } from './links-pg';
import { LinksService } from './links.service';
import { QrService } from './qr.service';
import { QrRenderPool } from './qr-render-pool';
import { registerLinkValidationMessages } from './validation-messages';

registerLinkValidationMessages();

/** Read-only lookups for other apps and domains (redirect, analytics): no queue needed. */
@Module({
  providers: [LinksRepository, LinksPg, LinkLookup],
  exports: [LinkLookup],
})
export class LinkLookupModule {}

/** Links use cases (needs PlatformModule and QueueModule in the app). */
@Module({
  imports: [DomainsModule],
  providers: [
    LinksRepository,
    LinksPg,
    LinkDomains,
    LinkWriter,
    LinkEventsService,
    LinksService,
    LinksBulkService,
    LinksImportService,
    QrService,
    QrRenderPool,
    LinkLookup,
  ],
  exports: [LinksService, LinksBulkService, LinksImportService, QrService, LinkLookup, LinkEventsService],
})
export class LinksModule {}
