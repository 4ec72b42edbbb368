import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { RedirectModule } from './redirect.module';
import { registerRedirectRoutes, sendNotFoundPage } from './redirect.routes';
import { installVisitRoute, MAX_SHORT_CODE_PARAM } from './visit.route';

export async function createRedirectApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(RedirectModule.forRoot(config), config, 'redirect', {
    requestLog: false,
    maxParamLength: MAX_SHORT_CODE_PARAM,
    // Malformed percent-encoding or an over-long segment: the 404 page, like any unknown path.
    frameworkErrors: (_err, _request, reply) => sendNotFoundPage(reply),
  });
  // Before the Fastify routes: the visit learns which one-segment paths are theirs.
  installVisitRoute(app);
  registerRedirectRoutes(app);
  return app;
}
