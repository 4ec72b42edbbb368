import type { OpenAPIObject } from '@nestjs/swagger';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * The MCP server's tools (decisions §26): each is one REST operation of the api. Its input
 * schema is built from that operation in the OpenAPI document (path and query parameters, and
 * the JSON body's schema), which Nest builds from the route's own DTO classes, so a tool and its
 * route take the same fields under the same rules. A call is that request, made in-process with
 * the caller's key: the same validation, auth guard (role, key scopes), plan limits and answers.
 */
export interface McpRoute {
  name: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  description: string;
}

export const MCP_ROUTES: readonly McpRoute[] = [
  { name: 'create_link', method: 'post', path: '/api/links', description: 'Create a short link (destination, app URLs, UTM, tags, domain, custom code…); needs templateId' },
  { name: 'update_link', method: 'put', path: '/api/links/{id}', description: 'Update a link: only the given fields change' },
  { name: 'get_link', method: 'get', path: '/api/links/{id}', description: 'Read one link by id' },
  { name: 'find_links', method: 'get', path: '/api/links', description: 'Find links, newest first: by text, tag, project, domain, state; limit and cursor page them' },
  { name: 'delete_link', method: 'delete', path: '/api/links/{id}', description: 'Delete a link' },
  { name: 'link_analytics', method: 'get', path: '/api/analytics/links/{linkId}', description: "A link's clicks over the last days: totals, by day, country, device, referrer" },
  { name: 'project_analytics', method: 'get', path: '/api/analytics/projects/{projectId}', description: "A project's clicks over the last days" },
  { name: 'organization_analytics', method: 'get', path: '/api/analytics/overview', description: "The organization's clicks over the last days, and its top links" },
  { name: 'conversion_analytics', method: 'get', path: '/api/analytics/conversions', description: 'Leads and sales: the funnel from clicks, revenue per currency, rows by day, link, campaign, country or source (paid plans)' },
  { name: 'list_domains', method: 'get', path: '/api/domains', description: "The organization's branded domains and their status" },
  { name: 'list_projects', method: 'get', path: '/api/projects', description: "The organization's projects" },
];

type Schema = Record<string, unknown>;

/** A schema with every `#/components/schemas/X` reference replaced by X's schema (a reference cycle stops at an open object). */
function inline(schema: unknown, doc: OpenAPIObject, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    if (seen.includes(name)) return { type: 'object' };
    return inline(doc.components?.schemas?.[name], doc, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, doc, seen)]));
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

function operationOf(doc: OpenAPIObject, route: McpRoute): Operation {
  const op = (doc.paths[route.path] as Record<string, Operation> | undefined)?.[route.method];
  if (!op) throw new Error(`MCP tool ${route.name}: no ${route.method.toUpperCase()} ${route.path} in the OpenAPI document`);
  return op;
}

/** A tool's input schema: the operation's path and query parameters, then its JSON body's properties. */
export function inputSchemaOf(doc: OpenAPIObject, route: McpRoute): Tool['inputSchema'] {
  const op = operationOf(doc, route);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    properties[p.name] = { ...(inline(p.schema, doc) as Schema), ...(p.description ? { description: p.description } : {}) };
    if (p.required || p.in === 'path') required.push(p.name);
  }
  const body = inline(op.requestBody?.content?.['application/json']?.schema, doc) as { properties?: Record<string, Schema>; required?: string[] } | undefined;
  if (body?.properties) {
    Object.assign(properties, body.properties);
    required.push(...(body.required ?? []));
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

export function toolsOf(doc: OpenAPIObject): Tool[] {
  return MCP_ROUTES.map((r) => ({ name: r.name, description: r.description, inputSchema: inputSchemaOf(doc, r) }));
}

/** The request a call makes: path parameters substituted, query parameters in the URL, the rest the JSON body. */
export function requestOf(doc: OpenAPIObject, route: McpRoute, args: Record<string, unknown>): { method: string; url: string; body?: Record<string, unknown> } {
  const op = operationOf(doc, route);
  const rest: Record<string, unknown> = { ...args };
  let path = route.path;
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    const value = rest[p.name];
    if (p.in !== 'path' && p.in !== 'query') continue;
    delete rest[p.name];
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(value ?? '')));
    else if (Array.isArray(value)) for (const v of value) query.append(p.name, String(v));
    else if (value !== undefined && value !== null) query.append(p.name, String(value));
  }
  const url = query.size ? `${path}?${query}` : path;
  const hasBody = Boolean(op.requestBody?.content?.['application/json']);
  return { method: route.method.toUpperCase(), url, ...(hasBody ? { body: rest } : {}) };
}
