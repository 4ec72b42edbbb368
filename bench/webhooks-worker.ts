/**
 * One more worker instance for bench/webhooks.ts (`--workers N` starts N-1 of these): the real
 * worker app on the configuration passed in the environment (same database and Redis prefix).
 */
import { Logger } from '@nestjs/common';
import { createWorkerApp } from '@dl/apps/worker';
import { loadConfig } from '@dl/platform/config';

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const app = await createWorkerApp(loadConfig(process.env));
  await app.listen(0, '127.0.0.1');
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
}

void main();
