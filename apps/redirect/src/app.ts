import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { RedirectModule } from './redirect.module';
import { installRedirectFastPath } from './redirect.fast-path';
import { registerRedirectRoutes, sendNotFoundPage } from './redirect.routes';

/** Longest path segment routed to the lookup; longer paths get the 404 page without one. */
const MAX_SHORT_CODE_PARAM = 256;

export async function createRedirectApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(RedirectModule.forRoot(config), config, 'redirect', {
    requestLog: false,
    maxParamLength: MAX_SHORT_CODE_PARAM,
    // Malformed percent-encoding or an over-long segment: the 404 page, like any unknown path.
    frameworkErrors: (_err, _request, reply) => sendNotFoundPage(reply),
  });
  registerRedirectRoutes(app);
  installRedirectFastPath(app);
  return app;
}
