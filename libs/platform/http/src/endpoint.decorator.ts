import { applyDecorators, Controller, Delete, Get, HttpCode, Patch, Post, Put, Type } from '@nestjs/common';
import {
  ApiBody,
  ApiBodyOptions,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ContentObject,
  HeadersObject,
  SchemaObject,
} from '@nestjs/swagger';
import { ApiErrorResponse } from './error-body.doc';
import type { ErrorStatus } from './error-codes';

export type SuccessStatus = 200 | 201 | 202 | 204 | 302;

export interface EndpointOptions {
  summary: string;
  description?: string;
  /** A route without credentials: the operation overrides the document's bearer security with none. */
  public?: boolean;
  /** The status the route answers on success (it sets the route's HttpCode too). Default 200. */
  status?: SuccessStatus;
  /** The success body: a response DTO class, or `[Class]` for an array of it. */
  response?: Type<unknown> | [Type<unknown>];
  /** The success answer beyond a JSON class: its description, headers, or content per media type. */
  success?: { description?: string; headers?: HeadersObject; content?: ContentObject; schema?: SchemaObject };
  /** The request body, when the route's `@Body()` type does not document it (a raw body, a multipart form). */
  body?: Type<unknown> | ApiBodyOptions;
  consumes?: string[];
  /** The success's media types; failures stay `application/json` (the contract's error body) whatever they are. */
  produces?: string[];
  /**
   * Query parameters read one by one (`@Query('email')`), which Nest cannot describe from a DTO:
   * by name, a string unless `schema` says otherwise, optional unless `required`.
   */
  query?: Record<string, { required?: boolean; description?: string; schema?: SchemaObject }>;
  /**
   * The failures the route answers besides the credential ones `@Auth` documents, by status,
   * each with what it means here. Each gets the contract's error body as schema.
   */
  errors?: Partial<Record<ErrorStatus, string>>;
}

/** A route's contract and, when it has its own, who may call it. */
export interface RouteOptions extends EndpointOptions {
  /**
   * The route's own credential decorators, listed as they would stand above it (`Auth(Permissions.read)`,
   * then `DashboardOnly()`), for a route whose access differs from its controller's.
   */
  access?: MethodDecorator | MethodDecorator[];
}

type RouteMapping = (path?: string) => MethodDecorator;

interface RouteDecorator {
  (options: RouteOptions): MethodDecorator;
  (path: string, options: RouteOptions): MethodDecorator;
}

/**
 * One route's contract in one decorator: its OpenAPI operation (summary, success answer,
 * error answers with the contract's error body) and the status it answers with, so the
 * document and the route cannot disagree on the success status. `Endpoint.get(path, …)`
 * (and `.post`, `.put`, `.patch`, `.delete`) maps the route's method and path as well, and
 * applies its own credentials (`access`); what every route of a controller shares stands
 * once on the class (`ApiController`).
 *
 *   @Endpoint.post({ summary: 'Create a project', status: 201, response: ProjectResponseDto, errors: { 400: 'Validation error' } })
 *   @Endpoint.get(':id', { access: Auth(Permissions.read), summary: 'Get a project', response: ProjectResponseDto })
 */
export function Endpoint(options: EndpointOptions): MethodDecorator {
  const status = options.status ?? 200;
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    HttpCode(status),
    ApiOperation({
      summary: options.summary,
      ...(options.description ? { description: options.description } : {}),
      ...(options.public ? { security: [] } : {}),
    }),
    ApiResponse({ status, ...(options.response ? { type: options.response } : {}), ...options.success }),
  ];
  if (options.body) decorators.push(ApiBody(typeof options.body === 'function' ? { type: options.body } : options.body));
  if (options.consumes) decorators.push(ApiConsumes(...options.consumes));
  if (options.produces) decorators.push(ApiProduces(...options.produces));
  for (const [name, { required = false, description, schema = { type: 'string' } }] of Object.entries(options.query ?? {})) {
    decorators.push(ApiQuery({ name, required, schema, ...(description ? { description } : {}) }));
  }
  for (const [code, description] of Object.entries(options.errors ?? {})) decorators.push(ApiErrorResponse(Number(code), description));
  return applyDecorators(...decorators);
}

function route(mapping: RouteMapping): RouteDecorator {
  return ((pathOrOptions: string | RouteOptions, maybeOptions?: RouteOptions): MethodDecorator => {
    const [path, { access = [], ...options }] =
      typeof pathOrOptions === 'string' ? [pathOrOptions, maybeOptions as RouteOptions] : [undefined, pathOrOptions];
    // Applied as if listed top to bottom above the route: the contract first, then the credentials from the last up.
    const credentials = (Array.isArray(access) ? access : [access]).slice().reverse();
    return applyDecorators(Endpoint(options), ...credentials, mapping(path));
  }) as RouteDecorator;
}

Endpoint.get = route(Get);
Endpoint.post = route(Post);
Endpoint.put = route(Put);
Endpoint.patch = route(Patch);
Endpoint.delete = route(Delete);

/**
 * A controller of the documented API: its path, its OpenAPI tag, and what all its routes share,
 * such as their credentials (`Auth(Permissions.keysManage)`, `DashboardOnly()`), in one line.
 *
 *   @ApiController('api/keys', 'api keys', Auth(Permissions.keysManage), DashboardOnly())
 */
export function ApiController(path: string, tag: string, ...shared: ClassDecorator[]): ClassDecorator {
  return applyDecorators(ApiTags(tag), ...shared, Controller(path));
}
