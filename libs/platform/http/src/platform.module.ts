import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@dl/platform/config';
import { DbModule } from '@dl/platform/db';
import { ObservabilityModule } from '@dl/platform/observability';
import { RedisModule } from '@dl/platform/redis';

/** What every app needs: validated config, Postgres, Redis, /health and /metrics. */
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [ConfigModule.forRoot(config), DbModule, RedisModule, ObservabilityModule],
      exports: [ConfigModule, DbModule, RedisModule, ObservabilityModule],
    };
  }
}
