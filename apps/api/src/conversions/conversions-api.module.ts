import { Module } from '@nestjs/common';
import { ConversionsModule } from '@dl/conversions';
import { IntegrationEndpointsController, IntegrationsController } from './integrations.controller';
import { RawBodyHook } from './raw-body.hook';
import { TrackController } from './track.controller';

@Module({
  imports: [ConversionsModule],
  controllers: [TrackController, IntegrationsController, IntegrationEndpointsController],
  providers: [RawBodyHook],
})
export class ConversionsApiModule {}
