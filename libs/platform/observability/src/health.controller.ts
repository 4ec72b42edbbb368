import { Controller, Get, Inject, Optional, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { RedisService } from '@dl/platform/redis';
import { DATABASE_PING, DatabasePing } from './database-ping';
import { metricsAccess } from './metrics-access';
import { MetricsService } from './metrics.service';

type Check = 'up' | 'down';

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
    private readonly metrics: MetricsService,
    @Optional() @Inject(DATABASE_PING) private readonly databasePing?: DatabasePing,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
  ) {}

  /** 200 {status: "ok", checks: {database, redis}}; 503 "degraded" when one is down. */
  @Get('health')
  async health(@Res() reply: FastifyReply): Promise<void> {
    const [database, redis] = await Promise.all([
      // On the pool: an ORM query would load Prisma's query compiler (~45 MB) in a process (the worker) whose hot paths need none.
      this.probe(this.databasePing ?? (() => this.prisma.pool.query('SELECT 1'))),
      this.probe(() => this.redis.client.ping()),
    ]);
    const ok = database === 'up' && redis === 'up';
    reply
      .status(ok ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: ok ? 'ok' : 'degraded', checks: { database, redis } });
  }

  /** Loopback peers, or `Authorization: Bearer <METRICS_TOKEN>` (decisions §14); elsewhere 404, or 401 when a token is set. */
  @Get('metrics')
  async metricsText(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const access = metricsAccess(request.raw.socket?.remoteAddress, request.headers.authorization, this.config?.METRICS_TOKEN);
    if (access === 'not-found') {
      reply.status(404).send({ error: 'Not Found', message: 'Not Found', statusCode: 404 });
      return;
    }
    if (access === 'unauthorized') {
      reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send({ error: 'Unauthorized', message: 'Missing or invalid metrics token', statusCode: 401 });
      return;
    }
    reply.header('Content-Type', this.metrics.registry.contentType).send(await this.metrics.render());
  }

  // 3 s, not 1 s: a busy machine (a worker just booted beside a full test run) answered
  // SELECT 1 in over a second and the probe called a healthy dependency down. A
  // dependency that is really down refuses at once, or is caught by this bound.
  private async probe(fn: () => Promise<unknown>): Promise<Check> {
    try {
      await withTimeout(fn(), 3000);
      return 'up';
    } catch {
      return 'down';
    }
  }
}
