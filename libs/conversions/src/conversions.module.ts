import { Module } from '@nestjs/common';
import { ConversionEventsService } from './conversion-events.service';
import { LeadsRepository } from './leads.repository';
import { SalesRepository } from './sales.repository';
import { TrackService } from './track.service';

/** Customers, leads, sales and refunds (decisions §23). Needs the platform and queue modules (global). */
@Module({
  providers: [LeadsRepository, SalesRepository, ConversionEventsService, TrackService],
  exports: [TrackService, LeadsRepository, SalesRepository],
})
export class ConversionsModule {}
