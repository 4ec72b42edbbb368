import { join } from 'node:path';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Tier } from '@dl/platform/db';
import { createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const ROOT = join(__dirname, '../../../..');
const TOOLS = ['create_link', 'update_link', 'get_link', 'find_links', 'delete_link', 'link_analytics', 'project_analytics', 'organization_analytics', 'conversion_analytics', 'list_domains', 'list_projects'];

/** The MCP server driven by the MCP SDK's own client, over streamable HTTP (`/mcp` on the api) and stdio (`npm run mcp`). */
describe('MCP server', () => {
  let env: TestEnv;
  let api: RunningApp;
  let org: SeededOrganization;
  let other: SeededOrganization;
  let readOnlyKey: string;

  const httpClient = async (key?: string): Promise<Client> => {
    const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers } }));
    return client;
  };
  const stdioClient = async (key: string | undefined): Promise<{ client: Client; stderr: () => string }> => {
    const client = new Client({ name: 'mcp-e2e-stdio', version: '1.0.0' });
    const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL } = env.config;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['tools/scripts/run.js', 'tools/mcp/main.ts'],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL, ...(key ? { DL_API_KEY: key } : {}) } as Record<string, string>,
      stderr: 'pipe',
    });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    await client.connect(transport);
    return { client, stderr: () => err };
  };
  const json = (r: unknown) => JSON.parse(((r as CallToolResult).content[0] as { text: string }).text);

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    [org, other] = [await seedOrganization(env, { tier: Tier.PRO }), await seedOrganization(env, { tier: Tier.PRO })];
    api = await startApp(createApiApp, env.config);
    const res = await request(api.url).post('/api/keys').set('Authorization', `Bearer ${org.owner.jwt}`).send({ name: 'mcp read', scopes: ['links:read'] }).expect(201);
    readOnlyKey = res.body.key;
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
  });

  describe('streamable HTTP at /mcp', () => {
    let client: Client;
    beforeAll(async () => {
      client = await httpClient(org.owner.apiKey);
    });
    afterAll(() => client?.close());

    it('lists the tools with input schemas built from the REST routes’ DTOs', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS);
      const create = tools.find((t) => t.name === 'create_link')!;
      expect(create.inputSchema.required).toEqual(['templateId']);
      expect(create.inputSchema.properties).toMatchObject({
        originalUrl: { type: 'string' },
        templateId: { type: 'string', format: 'uuid' },
        customCode: { pattern: '^[A-Za-z0-9]{4,30}$' },
        // References to other DTOs are inlined (no $ref left for the client to resolve).
        utmParameters: { type: 'object', allOf: [{ type: 'object', properties: { source: expect.any(Object), campaign: expect.any(Object) } }] },
      });
      expect(JSON.stringify(tools)).not.toContain('$ref');
      const find = tools.find((t) => t.name === 'find_links')!;
      expect(find.inputSchema.properties).toMatchObject({ search: { type: 'string', maxLength: 200 }, tag: { type: 'array' } });
      expect(tools.find((t) => t.name === 'get_link')!.inputSchema).toMatchObject({ required: ['id'], properties: { id: { type: 'string' } } });
    });

    it('creates, gets, finds, updates and deletes a link; reads its analytics, the organization’s, its conversions, domains and projects', async () => {
      const created = json(await client.callTool({ name: 'create_link', arguments: { templateId: org.template.id, originalUrl: 'https://example.com/mcp', customCode: 'McpLink1', title: 'From MCP' } }));
      expect(created).toMatchObject({ short_code: 'McpLink1', organization_id: org.organization.id });
      expect(json(await client.callTool({ name: 'get_link', arguments: { id: created.id } }))).toMatchObject({ id: created.id, title: 'From MCP', originalUrl: 'https://example.com/mcp' });
      const found = json(await client.callTool({ name: 'find_links', arguments: { search: 'McpLink1' } }));
      expect(found.map((l: { id: string }) => l.id)).toEqual([created.id]);
      expect(json(await client.callTool({ name: 'update_link', arguments: { id: created.id, title: 'Renamed' } }))).toMatchObject({ id: created.id, title: 'Renamed' });
      expect(json(await client.callTool({ name: 'link_analytics', arguments: { linkId: created.id, days: 7 } }))).toMatchObject({ totalClicks: 0 });
      expect(json(await client.callTool({ name: 'organization_analytics', arguments: {} }))).toEqual(expect.any(Object));
      expect(json(await client.callTool({ name: 'conversion_analytics', arguments: {} }))).toMatchObject({ leads: 0, sales: 0, revenue: [] });
      expect(json(await client.callTool({ name: 'list_domains', arguments: {} }))).toEqual([]);
      expect(Array.isArray(json(await client.callTool({ name: 'list_projects', arguments: {} })))).toBe(true);
      expect(json(await client.callTool({ name: 'delete_link', arguments: { id: created.id } }))).toEqual({ success: true });
      expect(await env.prisma.link.count({ where: { id: created.id } })).toBe(0);
    });

    it('a refused call is a tool error carrying the api’s error body (validation, another organization’s link)', async () => {
      const bad = await client.callTool({ name: 'create_link', arguments: { templateId: org.template.id, originalUrl: 'not a url' } });
      expect(bad.isError).toBe(true);
      // The same answer as POST /api/links with that body.
      const rest = await request(api.url).post('/api/links').set('Authorization', `Bearer ${org.owner.apiKey}`).send({ templateId: org.template.id, originalUrl: 'not a url' }).expect(400);
      expect(json(bad)).toEqual(rest.body);
      expect(json(bad)).toMatchObject({ error: 'Bad Request', statusCode: 400, validation: { originalUrl: expect.any(String) } });
      const foreign = (await request(api.url).post('/api/links').set('Authorization', `Bearer ${other.owner.apiKey}`).send({ templateId: other.template.id, originalUrl: 'https://b.example' }).expect(201)).body;
      const res = await client.callTool({ name: 'get_link', arguments: { id: foreign.id } });
      expect({ isError: res.isError, body: json(res) }).toEqual({ isError: true, body: { error: 'Not Found', message: 'Link not found', statusCode: 404 } });
      const unknown = await client.callTool({ name: 'list_projects', arguments: { nope: 1 } });
      expect(json(unknown)).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { nope: 'Unknown field' } });
    });

    it('a key without the scope: reads work, create_link and analytics are refused (403)', async () => {
      const limited = await httpClient(readOnlyKey);
      try {
        expect((await limited.callTool({ name: 'find_links', arguments: {} })).isError).toBe(false);
        const create = await limited.callTool({ name: 'create_link', arguments: { templateId: org.template.id, originalUrl: 'https://example.com/x' } });
        expect({ isError: create.isError, status: json(create).statusCode, error: json(create).error }).toEqual({ isError: true, status: 403, error: 'Forbidden' });
        const analytics = await limited.callTool({ name: 'organization_analytics', arguments: {} });
        expect({ isError: analytics.isError, status: json(analytics).statusCode }).toEqual({ isError: true, status: 403 });
      } finally {
        await limited.close();
      }
    });

    it('a missing or unknown key → 401 before any MCP message; GET /mcp → 405', async () => {
      await expect(httpClient()).rejects.toThrow(/401/);
      await expect(httpClient(`dl_${'0'.repeat(64)}`)).rejects.toThrow(/401/);
      const raw = await request(api.url).post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect({ status: raw.status, body: raw.body }).toEqual({ status: 401, body: { error: 'Unauthorized', message: 'Missing or invalid API key', statusCode: 401 } });
      const session = await request(api.url).post('/mcp').set('Authorization', `Bearer ${org.owner.jwt}`).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(session.status).toBe(401);
      expect((await request(api.url).get('/mcp')).status).toBe(405);
    });
  });

  describe('stdio (npm run mcp)', () => {
    it('lists the tools and calls them with the key of DL_API_KEY', async () => {
      const { client } = await stdioClient(org.owner.apiKey);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
        const created = json(await client.callTool({ name: 'create_link', arguments: { templateId: org.template.id, originalUrl: 'https://example.com/stdio', customCode: 'McpStdio1' } }));
        expect(created).toMatchObject({ short_code: 'McpStdio1', user_id: org.owner.user.id });
        const limited = json(await client.callTool({ name: 'get_link', arguments: { id: created.id } }));
        expect(limited.id).toBe(created.id);
      } finally {
        await client.close();
      }
    }, 90_000);

    it('an out-of-scope key is refused per call; a missing or unknown key stops the server before it answers', async () => {
      const { client } = await stdioClient(readOnlyKey);
      try {
        const res = await client.callTool({ name: 'create_link', arguments: { templateId: org.template.id, originalUrl: 'https://example.com/x' } });
        expect({ isError: res.isError, status: json(res).statusCode }).toEqual({ isError: true, status: 403 });
      } finally {
        await client.close();
      }
      await expect(stdioClient(undefined)).rejects.toThrow();
      await expect(stdioClient(`dl_${'0'.repeat(64)}`)).rejects.toThrow();
    }, 120_000);
  });
});
