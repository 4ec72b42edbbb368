import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createTestEnv, RunningApp, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const root = join(__dirname, '..', '..', '..', '..');
const FIX = 'run `npm run openapi:generate` and commit apps/dashboard/src/api/';

// The dashboard's client is generated from /openapi.json (openapi-typescript + openapi-fetch).
// The committed document and types must be what the api serves today: a route, DTO or
// response doc changed without regenerating them fails here.
describe('dashboard API client', () => {
  let env: TestEnv;
  let server: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv();
    server = await startApp(createApiApp, env.config);
  });

  afterAll(async () => {
    await server?.close();
    await env?.teardown();
  });

  it('was generated from the document the api serves', async () => {
    const served = (await request(server.url).get('/openapi.json').expect(200)).body as unknown;
    const committed = JSON.parse(readFileSync(join(root, 'apps/dashboard/src/api/openapi.json'), 'utf8')) as unknown;
    if (JSON.stringify(served) !== JSON.stringify(committed)) {
      // A readable diff first, then the instruction.
      expect(committed).toEqual(served);
      throw new Error(`apps/dashboard/src/api/openapi.json differs from /openapi.json: ${FIX}`);
    }
  });

  it('has types that match the committed document', async () => {
    const run = promisify(execFile);
    const res = await run(process.execPath, [join(root, 'tools/scripts/run.js'), join(root, 'tools/openapi/generate.ts'), '--check'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    }).catch((err: { code?: number; stderr?: string }) => err);
    expect({ code: 'code' in res ? res.code : 0, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
  }, 60_000);
});
