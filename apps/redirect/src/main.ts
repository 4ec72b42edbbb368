import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { createRedirectApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('redirect');
  const app = await createRedirectApp(config);
  await app.listen(config.REDIRECT_PORT, config.HOST);
  app.getHttpAdapter().getInstance().log.info({ port: config.REDIRECT_PORT }, 'redirect listening');
}

main().catch((err: unknown) => {
  process.stderr.write(`[redirect] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
