import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { createRedirectApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('redirect');
  const app = await createRedirectApp(config);
  await app.listen(config.REDIRECT_PORT, config.HOST);
  app.getHttpAdapter().getInstance().log.info({ port: config.REDIRECT_PORT }, 'redirect listening');
}

if (require.main === module) void main();
export { main };
