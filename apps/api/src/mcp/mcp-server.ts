import type { OpenAPIObject } from '@nestjs/swagger';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CallToolResult, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCP_ROUTES, requestOf, toolsOf } from './mcp-tools';

/** Where a tool call goes: the api's own routes, in-process (Fastify's inject). */
export interface McpBackend {
  document: OpenAPIObject;
  inject(request: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<{ statusCode: number; body: string }>;
}

export const MCP_SERVER_INFO = { name: 'deeplink', version: '1.0.0' };

/**
 * An MCP server for one API key (decisions §26): its tools are REST operations (mcp-tools.ts),
 * each call made with that key, so the key's role, scopes and plan decide as they do over HTTP.
 * A refused call is a tool error whose text is the api's error body.
 */
export function createMcpServer(backend: McpBackend, apiKey: string): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  const tools = toolsOf(backend.document);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const route = MCP_ROUTES.find((r) => r.name === request.params.name);
    if (!route) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const call = requestOf(backend.document, route, args);
    if (!call.body) {
      const unknown = Object.keys(args).filter((k) => !(k in ((tools.find((t) => t.name === route.name)?.inputSchema.properties as object) ?? {})));
      if (unknown.length) {
        const body = { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: Object.fromEntries(unknown.map((k) => [k, 'Unknown field'])) };
        return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
      }
    }
    const res = await backend.inject({
      method: call.method,
      url: call.url,
      headers: { authorization: `Bearer ${apiKey}`, ...(call.body ? { 'content-type': 'application/json' } : {}) },
      ...(call.body ? { payload: JSON.stringify(call.body) } : {}),
    });
    return { content: [{ type: 'text', text: res.body || JSON.stringify({ statusCode: res.statusCode }) }], isError: res.statusCode >= 400 };
  });
  return server;
}
