import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { IsInt, IsString, Max, Min } from 'class-validator';
import request from 'supertest';
import { AppConfig } from '@dl/platform/config';
import { appEnv, closeAll, RunningApp, startApp, TestEnv } from '@dl/testing';
import { LinkNotFoundError } from '@dl/links';
import { createHttpApp, PlatformModule } from '@dl/platform/http';

class EchoDto {
  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count: number;
}

@Controller('t')
class ProbeController {
  @Post('echo')
  echo(@Body() body: EchoDto) {
    return body;
  }

  @Get('boom')
  boom(): never {
    throw new Error('relation "secret_table" does not exist at SELECT * FROM secret_table');
  }

  @Get('missing')
  missing(): never {
    throw new LinkNotFoundError();
  }

  @Get('things/:id')
  thing(@Param('id') id: string) {
    return { length: id.length };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

function probeApp(config: AppConfig) {
  return createHttpApp(
    { module: ProbeModule, imports: [PlatformModule.forRoot(config)] },
    config,
    'probe',
  );
}

// The platform's HTTP behaviours every app shares, on a probe module (kept here, not in
// libs/platform/http, because the test harness depends on domain libraries).
describe('platform http (errors, health, metrics)', () => {
  let env: TestEnv, server: RunningApp;

  beforeAll(async () => ({ env, server } = await appEnv(probeApp)));

  afterAll(() => closeAll(server, env));

  it('GET /health answers ok with both checks up', async () => {
    const res = await request(server.url).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
  });

  it('GET /health answers 503 degraded when Redis is unreachable', async () => {
    const broken = await startApp(probeApp, env.withOverrides({ REDIS_URL: 'redis://127.0.0.1:1' }));
    try {
      const res = await request(broken.url).get('/health').expect(503);
      expect(res.body).toEqual({ status: 'degraded', checks: { database: 'up', redis: 'down' } });
    } finally {
      await broken.close();
    }
  });

  it('GET /health answers 503 degraded when Postgres is unreachable', async () => {
    const broken = await startApp(
      probeApp,
      env.withOverrides({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere' }),
    );
    try {
      const res = await request(broken.url).get('/health').expect(503);
      expect(res.body).toEqual({ status: 'degraded', checks: { database: 'down', redis: 'up' } });
    } finally {
      await broken.close();
    }
  });

  it('malformed JSON answers 400 Invalid JSON body', async () => {
    const res = await request(server.url)
      .post('/t/echo')
      .set('content-type', 'application/json')
      .send('{"name": "x",')
      .expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid JSON body', statusCode: 400 });
  });

  it('a body over 1 MB answers 413 Payload too large', async () => {
    const res = await request(server.url)
      .post('/t/echo')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), count: 1 }))
      .expect(413);
    expect(res.body).toEqual({ error: 'Payload Too Large', message: 'Payload too large', statusCode: 413 });
  });

  it("Fastify's routing errors answer the contract's body: malformed percent-encoding 400, a path parameter over 256 characters 414", async () => {
    for (const path of ['/t/things/%E0%A4%A', '/t/things/%zz', '/t/things/%']) {
      const res = await request(server.url).get(path).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid URL', statusCode: 400 });
    }
    const long = await request(server.url).get(`/t/things/${'a'.repeat(257)}`).expect(414);
    expect(long.body).toEqual({ error: 'URI Too Long', message: 'Path parameter too long', statusCode: 414 });
    expect(long.headers['x-request-id']).toEqual(expect.any(String));
    // A domain name (up to 253 characters) still reaches its route.
    expect((await request(server.url).get(`/t/things/${'a'.repeat(256)}`).expect(200)).body).toEqual({ length: 256 });
  });

  it('an unknown route answers 404 Not Found', async () => {
    const res = await request(server.url).get('/no/such/route').expect(404);
    expect(res.body).toEqual({ error: 'Not Found', message: 'Not Found', statusCode: 404 });
  });

  it('validation errors name each field, unknown fields included', async () => {
    const res = await request(server.url).post('/t/echo').send({ name: 5, count: 99, extra: true }).expect(400);
    expect(res.body).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation: {
        name: 'name must be a string',
        count: 'count must not be greater than 10',
        extra: 'Unknown field',
      },
    });
  });

  // The pipe's rules for hostile bodies are in libs/platform/http/src/validation.pipe.spec.ts;
  // over HTTP, one of each: a raw 100 KB [[[…]]] (a 500 from a stack overflow once) and a key
  // named constructor (which class-transformer dropped, or failed on).
  it('a body nested 50,000 levels deep, and a key named constructor → 400 naming where', async () => {
    const deep = await request(server.url).post('/t/echo').set('content-type', 'application/json').send('['.repeat(50_000) + ']'.repeat(50_000)).expect(400);
    expect(deep.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { ['[0]'.repeat(64)]: 'Must not be nested more than 64 levels deep' } });
    const reserved = await request(server.url).post('/t/echo').send({ name: { nested: [{ constructor: 'x' }] }, count: 1 }).expect(400);
    expect(reserved.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { 'name.nested[0].constructor': 'Must not be named constructor or __proto__' } });
  });

  it('a valid body passes through', async () => {
    await request(server.url).post('/t/echo').send({ name: 'a', count: 3 }).expect(201, { name: 'a', count: 3 });
  });

  it('typed domain errors render the contract body', async () => {
    const res = await request(server.url).get('/t/missing').expect(404);
    expect(res.body).toEqual({ error: 'Not Found', message: 'Link not found', statusCode: 404 });
  });

  it('unknown errors answer 500 without stack or SQL, with a request id', async () => {
    const res = await request(server.url).get('/t/boom').set('x-request-id', 'req-abc-123').expect(500);
    expect(res.body).toEqual({ error: 'Internal Server Error', message: 'Internal Server Error', statusCode: 500 });
    expect(res.headers['x-request-id']).toBe('req-abc-123');
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|at /);
  });

  it('GET /metrics exposes request counts by route and status', async () => {
    await request(server.url).get('/health');
    const res = await request(server.url).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket/);
    expect(res.text).toMatch(/clicks_captured_total/);
  });
});
