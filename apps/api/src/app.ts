import multipart from '@fastify/multipart';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { ApiModule } from './api.module';
import { buildOpenApiDocument } from './openapi/document';
import { serveDashboard } from './dashboard/dashboard-static';
import { registerSecurityHeaders } from './security-headers';
import { registerMcpRoute } from './mcp/mcp-http';

/** For benchmarks and tests that mount extra controllers beside the api's. */
export { ApiModule };
/** For `npm run openapi:generate` (the dashboard's client). */
export { buildOpenApiDocument };

export interface ApiAppOptions {
  /** The dashboard's build (default dist/dashboard, written by `npm run build:dashboard`). */
  dashboardDir?: string;
}

/** Builds the api app (used by main.ts and by the e2e tests). */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<NestFastifyApplication> {
  const app = await createHttpApp(ApiModule.forRoot(config), config, 'api', { requestContext: true });
  // Multipart for POST /migrations/import only (the route reads it with request.parts(), 10 MB per file).
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20 } });
  // SCIM clients send application/scim+json (RFC 7644 §3.1): parsed as JSON, like application/json.
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addContentTypeParser('application/scim+json', { parseAs: 'string' }, fastify.getDefaultJsonParser('error', 'error'));
  if (config.CORS_ORIGIN) {
    app.enableCors({
      origin: config.CORS_ORIGIN.split(',').map((o) => o.trim()),
      credentials: false,
      exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'x-request-id', 'X-Next-Cursor'],
    });
  }
  await registerSecurityHeaders(app);
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  // The MCP server's streamable HTTP transport (decisions §26), its tools built from this document.
  registerMcpRoute(app, document);
  await serveDashboard(app, options.dashboardDir);
  return app;
}

// The MCP server's parts, for its stdio entry (tools/mcp/main.ts).
export { apiKeyOf } from './mcp/mcp-http';
export { createMcpServer } from './mcp/mcp-server';
