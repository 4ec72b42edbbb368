import cors from '@fastify/cors';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { IngestModule } from './ingest.module';
import { installSdkFastPath } from './sdk/sdk.fast-path';

const PIXEL_PATH = '/api/pixel/';

export async function createIngestApp(config: AppConfig): Promise<NestFastifyApplication> {
  // No access log line per request: at ingestion rates it would cost more than the request (metrics still count every route and status).
  const app = await createHttpApp(IngestModule.forRoot(config), config, 'ingest', { requestLog: false });
  // The pixel runs on customers' sites: CORS is open there (no credentials); SDK routes need none.
  await app.register(cors, {
    delegator: (request, callback) => {
      const open = (request.url ?? '').startsWith(PIXEL_PATH);
      callback(null, open
        ? { origin: '*', methods: ['GET', 'POST'], allowedHeaders: ['Content-Type'], maxAge: 86400,
            exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'] }
        : { origin: false });
    },
  });
  installSdkFastPath(app);
  return app;
}
