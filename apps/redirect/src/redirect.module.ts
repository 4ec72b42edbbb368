import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { DATABASE_PING } from '@dl/platform/observability';
import { QueueModule } from '@dl/platform/queue';
import { RedirectEdgeModule, RedirectStore } from '@dl/redirect';
import { AbuseDeskModule } from '@dl/safety';

/** /health probes Postgres through the edge's own pool: the redirect process never runs a Prisma query. */
@Global()
@Module({
  imports: [RedirectEdgeModule],
  providers: [{ provide: DATABASE_PING, inject: [RedirectStore], useFactory: (store: RedirectStore) => () => store.ping() }],
  exports: [DATABASE_PING],
})
class RedirectHealthModule {}

/**
 * The short-link edge: cached lookup, decision, click capture, answer (the visit: visit.route.ts; other routes: redirect.routes.ts).
 * The abuse desk files the report form's reports (report.routes.ts).
 */
@Module({})
export class RedirectModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RedirectModule,
      imports: [PlatformModule.forRoot(config), QueueModule, RedirectEdgeModule, RedirectHealthModule, AbuseDeskModule],
    };
  }
}
