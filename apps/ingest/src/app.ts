import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { IngestModule } from './ingest.module';

export async function createIngestApp(config: AppConfig): Promise<NestFastifyApplication> {
  return createHttpApp(IngestModule.forRoot(config), config, 'ingest');
}
