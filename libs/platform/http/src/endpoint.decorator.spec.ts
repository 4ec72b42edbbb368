import { Controller, Delete, Get, Module, Post, SetMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiProperty, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiController, Endpoint } from './endpoint.decorator';

class ThingDto {
  @ApiProperty() name!: string;
}

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDoc' } } };
const THING = { $ref: '#/components/schemas/ThingDto' };

@Controller('things')
class ThingsController {
  @Post()
  @Endpoint({ summary: 'Create a thing', status: 201, response: ThingDto, errors: { 400: 'Validation error', 409: 'Name taken' } })
  create(): ThingDto {
    return { name: 'a' };
  }

  @Get()
  @Endpoint({ summary: 'List things', description: 'Newest first', public: true, response: [ThingDto] })
  list(): ThingDto[] {
    return [];
  }

  @Post('touch')
  @Endpoint({ summary: 'Touch a thing', response: ThingDto })
  touch(): ThingDto {
    return { name: 'b' };
  }

  @Get('export')
  @Endpoint({
    summary: 'Export things',
    produces: ['text/csv'],
    success: { content: { 'text/csv': { schema: { type: 'string' } } } },
    errors: { 400: 'Validation error' },
    query: { since: { required: true, description: 'From when' }, limit: { schema: { type: 'integer' } } },
  })
  export(): string {
    return '';
  }

  @Delete()
  @Endpoint({ summary: 'Remove things', status: 204, success: { description: 'Removed' }, errors: { 404: 'Thing not found' } })
  remove(): void {}
}

/** The same contract with the route, its credentials and the controller's shared decorators each in one line. */
@ApiController('gadgets', 'gadgets', SetMetadata('shared', 'yes'))
class GadgetsController {
  @Endpoint.post({ summary: 'Create a gadget', status: 201, response: ThingDto })
  create(): ThingDto {
    return { name: 'g' };
  }

  @Endpoint.get(':id', { access: [ApiBearerAuth(), SetMetadata('own', 'yes')], summary: 'Read a gadget', response: ThingDto, errors: { 404: 'Gadget not found' } })
  get(): ThingDto {
    return { name: 'h' };
  }
}

@Module({ controllers: [ThingsController, GadgetsController] })
class ThingsModule {}

describe(Endpoint.name, () => {
  let app: NestFastifyApplication;
  let document: OpenAPIObject;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    document = SwaggerModule.createDocument(app, new DocumentBuilder().addBearerAuth().build());
  });

  afterAll(async () => {
    await app?.close();
  });

  it('documents the summary, the success answer and each error with the contract error body', () => {
    expect(document.paths['/things'].post).toEqual({
      operationId: 'ThingsController_create',
      parameters: [],
      summary: 'Create a thing',
      tags: ['Things'],
      responses: {
        201: { description: '', content: { 'application/json': { schema: THING } } },
        400: { description: 'Validation error', content: ERROR_BODY },
        409: { description: 'Name taken', content: ERROR_BODY },
      },
    });
    expect(document.components?.schemas?.ErrorBodyDoc).toMatchObject({ required: ['error', 'message', 'statusCode'] });
  });

  it('documents an array answer, a description and a public route (no security)', () => {
    expect(document.paths['/things'].get).toEqual({
      operationId: 'ThingsController_list',
      parameters: [],
      summary: 'List things',
      description: 'Newest first',
      security: [],
      tags: ['Things'],
      responses: { 200: { description: '', content: { 'application/json': { schema: { type: 'array', items: THING } } } } },
    });
  });

  it('documents a 204 with its description and no body', () => {
    expect(document.paths['/things'].delete?.responses).toEqual({
      204: { description: 'Removed' },
      404: { description: 'Thing not found', content: ERROR_BODY },
    });
  });

  it('documents the failures of a route that produces a file as the JSON error body, and each named query parameter with a schema', () => {
    const operation = document.paths['/things/export'].get;
    expect(operation?.responses).toEqual({
      200: { description: '', content: { 'text/csv': { schema: { type: 'string' } } } },
      400: { description: 'Validation error', content: ERROR_BODY },
    });
    expect(operation?.parameters).toHaveLength(2);
    expect(operation?.parameters).toEqual(
      expect.arrayContaining([
        { name: 'since', in: 'query', required: true, description: 'From when', schema: { type: 'string' } },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } },
      ]),
    );
  });

  it('makes the route answer the documented status (200 unless told, also on POST)', async () => {
    const fastify = app.getHttpAdapter().getInstance();
    const answers = await Promise.all([
      fastify.inject({ method: 'POST', url: '/things' }),
      fastify.inject({ method: 'POST', url: '/things/touch' }),
      fastify.inject({ method: 'GET', url: '/things' }),
      fastify.inject({ method: 'DELETE', url: '/things' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 200, 200, 204]);
    expect(Object.keys(document.paths['/things/touch'].post?.responses ?? {})).toEqual(['200']);
  });

  it('maps the method and path of Endpoint.get/.post, applies the route\'s access, and the controller\'s path, tag and shared decorators', async () => {
    expect(document.paths['/gadgets'].post).toMatchObject({ summary: 'Create a gadget', tags: ['gadgets'], responses: { 201: { description: '' } } });
    expect(document.paths['/gadgets/{id}'].get).toMatchObject({
      summary: 'Read a gadget',
      tags: ['gadgets'],
      security: [{ bearer: [] }],
      responses: { 200: { description: '' }, 404: { description: 'Gadget not found', content: ERROR_BODY } },
    });
    expect(Reflect.getMetadata('shared', GadgetsController)).toBe('yes');
    expect(Reflect.getMetadata('own', GadgetsController.prototype.get)).toBe('yes');
    const fastify = app.getHttpAdapter().getInstance();
    const answers = await Promise.all([fastify.inject({ method: 'POST', url: '/gadgets' }), fastify.inject({ method: 'GET', url: '/gadgets/1' })]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 200]);
  });
});
