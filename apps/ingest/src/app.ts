import cors from '@fastify/cors';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { corsFor } from './ingest.cors';
import { IngestModule } from './ingest.module';
import { installSdkRoutes } from './sdk/sdk.routes';

export async function createIngestApp(config: AppConfig): Promise<NestFastifyApplication> {
  // No access log line per request: at ingestion rates it would cost more than the request (metrics still count every route and status).
  const app = await createHttpApp(IngestModule.forRoot(config), config, 'ingest', { requestLog: false });
  await app.register(cors, { delegator: (request, callback) => callback(null, corsFor(request.url ?? '')) });
  installSdkRoutes(app);
  return app;
}
