import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { RedirectModule } from './redirect.module';

export async function createRedirectApp(config: AppConfig): Promise<NestFastifyApplication> {
  return createHttpApp(RedirectModule.forRoot(config), config, 'redirect', { requestLog: false });
}
