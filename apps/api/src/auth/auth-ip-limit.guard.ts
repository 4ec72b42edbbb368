import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthIpLimiter } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { clientIp, TooManyRequestsError } from '@dl/platform/http';

/**
 * Per-IP limit of the password routes (decisions §14): every attempt, valid or not, counts
 * against the caller's IP (the socket's peer, or the first address of TRUSTED_CLIENT_IP_HEADER
 * when configured; a spoofed X-Forwarded-For counts for nothing). Answers carry the
 * X-RateLimit-* headers; past the limit, 429 with a `Retry-After` of the window's end.
 * Runs before validation, so a flood of malformed bodies is limited too.
 */
@Injectable()
export class AuthIpLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: AuthIpLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.limiter.enabled) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const ip = clientIp(request.headers, request.raw.socket?.remoteAddress ?? request.ip, this.config.TRUSTED_CLIENT_IP_HEADER) ?? 'unknown';
    const rl = await this.limiter.consume(ip);
    const headers = {
      'X-RateLimit-Limit': String(rl.limit),
      'X-RateLimit-Remaining': String(rl.remaining),
      'X-RateLimit-Reset': String(rl.reset),
    };
    if (!rl.allowed) throw new TooManyRequestsError(rl.retryAfter, headers);
    reply.headers(headers);
    return true;
  }
}
