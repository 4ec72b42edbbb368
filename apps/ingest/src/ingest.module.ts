import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';
import { SdkIngestModule } from '@dl/sdk';
import { PixelController } from './pixel/pixel.controller';

/** SDK and pixel ingestion: authenticate the token, validate, enqueue (SDK routes: sdk/sdk.routes.ts). */
@Module({})
export class IngestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [PlatformModule.forRoot(config), QueueModule, SdkIngestModule],
      controllers: [PixelController],
    };
  }
}
