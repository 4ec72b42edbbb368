import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';

/** The public REST API: controllers of the domain modules, wired here. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [PlatformModule.forRoot(config), QueueModule],
    };
  }
}
