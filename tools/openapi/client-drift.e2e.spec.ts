import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { appEnv, closeAll, RunningApp, TestEnv } from '@dl/testing';
import { DOCUMENT_FILE, documentText, TYPES_FILE, typesFor } from './client-files';

const FIX = 'run `npm run openapi:generate` and commit apps/dashboard/src/api/';

// The dashboard's client is generated from /openapi.json (openapi-typescript + openapi-fetch).
// The committed document and types must be what the api serves today: a route, DTO or
// response doc changed without regenerating them fails here.
describe('dashboard API client', () => {
  let env: TestEnv, server: RunningApp, served: unknown;

  beforeAll(async () => {
    ({ env, server } = await appEnv(createApiApp));
    served = (await request(server.url).get('/openapi.json').expect(200)).body;
  });

  afterAll(() => closeAll(server, env));

  it('was generated from the document the api serves', () => {
    const committed = readFileSync(DOCUMENT_FILE, 'utf8');
    if (committed !== documentText(served)) {
      // A readable diff first, then the instruction.
      expect(JSON.parse(committed)).toEqual(served);
      throw new Error(`apps/dashboard/src/api/openapi.json differs from /openapi.json (or its layout does): ${FIX}`);
    }
  });

  it('has the types openapi-typescript makes of that document', () => {
    const committed = readFileSync(TYPES_FILE, 'utf8');
    if (committed !== typesFor(documentText(served))) throw new Error(`apps/dashboard/src/api/schema.d.ts is stale: ${FIX}`);
  }, 60_000);
});
