import type { FastifyReply, FastifyRequest } from 'fastify';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Authenticator } from '@dl/auth';
import { renderError } from '@dl/platform/http';
import { createMcpServer, McpBackend } from './mcp-server';

const UNAUTHORIZED = { error: 'Unauthorized', message: 'Missing or invalid API key', statusCode: 401 };

/** The key of `Authorization: Bearer dl_…`, or null (a session token is not an MCP credential). */
export function apiKeyOf(header: unknown): string | null {
  const token = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  return token && token.startsWith('dl_') ? token : null;
}

/**
 * `POST /mcp` (decisions §26): MCP's streamable HTTP transport, stateless (one server and
 * transport per request, JSON answers), after the key is checked (401 with the contract's body
 * for a missing, unknown, revoked or expired key). Registered on Fastify beside Nest's routes:
 * it speaks JSON-RPC, not the REST contract, so it is not in the OpenAPI document.
 */
export function registerMcpRoute(app: NestFastifyApplication, document: OpenAPIObject): void {
  const fastify = app.getHttpAdapter().getInstance();
  const authenticator = app.get(Authenticator);
  const backend: McpBackend = {
    document,
    inject: async (req) => {
      const res = await fastify.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
      return { statusCode: res.statusCode, body: res.body };
    },
  };

  fastify.route({
    method: 'POST',
    url: '/mcp',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const key = apiKeyOf(request.headers.authorization);
      if (!key) return reply.code(401).header('www-authenticate', 'Bearer').send(UNAUTHORIZED);
      try {
        await authenticator.authenticateToken(key);
      } catch (err) {
        const { body, headers } = renderError(err);
        return reply.code(body.statusCode).headers(headers).send(body);
      }
      const server = createMcpServer(backend, key);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
  fastify.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    handler: (_request, reply) =>
      reply.code(405).header('allow', 'POST').send({ error: 'Method Not Allowed', message: 'The MCP endpoint is stateless: POST JSON-RPC messages', statusCode: 405 }),
  });
}
