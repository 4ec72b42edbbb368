import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';

/** SDK and pixel ingestion: authenticate the token, validate, enqueue. */
@Module({})
export class IngestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [PlatformModule.forRoot(config), QueueModule],
    };
  }
}
