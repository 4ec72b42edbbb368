/**
 * `npm run mcp`: the MCP server over stdio (decisions §26), for an agent running on the
 * operator's machine. DL_API_KEY is the `dl_` key it acts with; the configuration is the api's
 * (DATABASE_URL, REDIS_URL, …). The api runs in-process without listening; stdout is the
 * protocol's, so nothing else is written there.
 */
import 'reflect-metadata';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Authenticator } from '@dl/auth';
import { ConfigError, loadConfig } from '@dl/platform/config';
import { apiKeyOf, buildOpenApiDocument, createApiApp, createMcpServer } from '@dl/apps/api';

async function main(): Promise<number> {
  const key = apiKeyOf(`Bearer ${process.env.DL_API_KEY ?? ''}`);
  if (!key) {
    process.stderr.write('Error: set DL_API_KEY to a dl_ API key\n');
    return 2;
  }
  let config;
  try {
    config = loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/deeplink', ...process.env, LOG_LEVEL: 'silent' });
  } catch (err) {
    process.stderr.write(`Error: ${err instanceof ConfigError ? err.message : String(err)}\n`);
    return 1;
  }
  const app = await createApiApp(config);
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  try {
    await app.get(Authenticator).authenticateToken(key);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    await app.close();
    return 1;
  }
  const server = createMcpServer(
    {
      document: buildOpenApiDocument(app),
      inject: async (req) => {
        const res = await fastify.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
        return { statusCode: res.statusCode, body: res.body };
      },
    },
    key,
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await app.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
