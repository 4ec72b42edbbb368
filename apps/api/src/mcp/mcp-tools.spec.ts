import type { OpenAPIObject } from '@nestjs/swagger';
import { inputSchemaOf, McpRoute, requestOf } from './mcp-tools';

/** A document shaped like Nest's: a path parameter, query parameters, a body by reference. */
const DOC = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/things/{id}': {
      put: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          { name: 'tag', in: 'query', required: false, description: 'Repeat for several', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
        ],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateThingDto' } } } },
      },
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] },
    },
  },
  components: {
    schemas: {
      UpdateThingDto: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 }, owner: { $ref: '#/components/schemas/Owner' } } },
      Owner: { type: 'object', properties: { next: { $ref: '#/components/schemas/Owner' } } },
    },
  },
} as unknown as OpenAPIObject;

const PUT: McpRoute = { name: 'update_thing', method: 'put', path: '/api/things/{id}', description: '' };
const GET: McpRoute = { name: 'get_thing', method: 'get', path: '/api/things/{id}', description: '' };

describe('MCP tools from OpenAPI operations', () => {
  it('input schema: path and query parameters, then the body’s properties; references inlined, a cycle cut', () => {
    expect(inputSchemaOf(DOC, PUT)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        tag: { type: 'array', items: { type: 'string' }, description: 'Repeat for several' },
        name: { type: 'string', maxLength: 5 },
        owner: { type: 'object', properties: { next: { type: 'object' } } },
      },
      required: ['id', 'name'],
      additionalProperties: false,
    });
  });

  it('request: the path parameter encoded, query arrays repeated, the rest the JSON body', () => {
    expect(requestOf(DOC, PUT, { id: 'a/b', tag: ['x', 'y'], name: 'n', owner: {} })).toEqual({
      method: 'PUT',
      url: '/api/things/a%2Fb?tag=x&tag=y',
      body: { name: 'n', owner: {} },
    });
    expect(requestOf(DOC, GET, { id: '1' })).toEqual({ method: 'GET', url: '/api/things/1' });
  });

  it('a route missing from the document is a startup error, not a silent tool', () => {
    expect(() => inputSchemaOf(DOC, { ...GET, path: '/api/nope' })).toThrow('MCP tool get_thing: no GET /api/nope in the OpenAPI document');
  });
});
