import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';
import { RedirectEdgeModule } from '@dl/redirect';

/** The short-link edge: cached lookup, decision, click capture, answer (routes: redirect.routes.ts). */
@Module({})
export class RedirectModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RedirectModule,
      imports: [PlatformModule.forRoot(config), QueueModule, RedirectEdgeModule],
    };
  }
}
