/**
 * `npm run openapi:generate`: builds the api's OpenAPI document from its controllers
 * (no server is started, nothing is written to the database) and writes
 *   apps/dashboard/src/api/openapi.json   the document, as /openapi.json serves it
 *   apps/dashboard/src/api/schema.d.ts    its types (openapi-typescript), used by openapi-fetch
 * Both are committed; tools/openapi/client-drift.e2e.spec.ts fails when they differ
 * from what the api serves, so run this after changing a route, DTO or response doc.
 * `--check` writes nothing and exits 1 when either file is stale.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '@dl/platform/config';
import { buildOpenApiDocument, createApiApp } from '@dl/apps/api';
import { DOCUMENT_FILE, documentText, TYPES_FILE, typesFor } from './client-files';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  // A config good enough to build the Nest app: nothing connects until a request comes.
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/openapi_unused',
    LOG_LEVEL: 'silent',
    WORKER_SCHEDULES_ENABLED: 'false',
  });
  const app = await createApiApp(config);
  const json = documentText(buildOpenApiDocument(app));
  await app.close();
  const types = typesFor(json);
  const stale = [
    [DOCUMENT_FILE, json],
    [TYPES_FILE, types],
  ].filter(([file, text]) => {
    try {
      return readFileSync(file, 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (check) {
    for (const [file] of stale) console.error(`stale: ${file} (run npm run openapi:generate)`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const [file, text] of stale) {
    writeFileSync(file, text);
    console.error(`wrote ${file}`);
  }
  if (!stale.length) console.error('openapi: up to date');
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
