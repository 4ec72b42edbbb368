import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '@dl/platform/http';
import { AuthMetadata, AUTH_METADATA, DASHBOARD_ONLY_METADATA } from './auth.metadata';
import { DashboardOnlyError, InsufficientRoleError, PlanFeatureError } from './auth.errors';
import { BearerStrategy } from './bearer.strategy';
import { PlansService } from './plans';
import { Principal } from './principal';
import { RateLimiter } from './rate-limiter.service';
import { PLAN_GATED_PERMISSIONS, roleAllows } from './role-permissions';

interface RouteAuth {
  meta: AuthMetadata;
  dashboardOnly: boolean;
}
type AuthedRequest = FastifyRequest & { principal?: Principal | null };

/**
 * The guard behind @Auth/@DashboardOnly: authenticate through passport-http-bearer (401) → dashboard-only (403) →
 * rate limit (429, headers on every counted response) → role and plan (403).
 * Runs once per request even when both the controller and the method carry @Auth.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly metadata = new WeakMap<object, RouteAuth>();
  /** Requests already through the guard (controller and method may both carry @Auth). */
  private readonly done = new WeakSet<object>();

  constructor(
    private readonly reflector: Reflector,
    private readonly bearer: BearerStrategy,
    private readonly rateLimiter: RateLimiter,
    private readonly plans: PlansService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthedRequest>();
    if (this.done.has(request)) return true;
    const { meta, dashboardOnly } = this.routeMetadata(context);

    const principal = await this.bearer.authenticateHeader(request.headers.authorization, meta.missingMessage);
    request.principal = principal;
    if (dashboardOnly && principal.kind !== 'session') throw new DashboardOnlyError();

    if (meta.rateLimit !== false && this.rateLimiter.enabled) {
      const rl = await this.rateLimiter.consume(principal);
      const headers = {
        'X-RateLimit-Limit': String(rl.limit),
        'X-RateLimit-Remaining': String(rl.remaining),
        'X-RateLimit-Reset': String(rl.reset),
      };
      http.getResponse<FastifyReply>().headers(headers);
      if (!rl.allowed) throw new TooManyRequestsError(rl.retryAfter, headers);
    }

    const permission = meta.permission;
    if (permission) {
      if (!roleAllows(principal.role, permission)) throw new InsufficientRoleError();
      if (PLAN_GATED_PERMISSIONS.has(permission) && !this.plans.limits(principal.tier).eventAnalytics) {
        throw new PlanFeatureError();
      }
    }
    this.done.add(request);
    return true;
  }

  /** Route metadata, read once per handler. */
  private routeMetadata(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    let cached = this.metadata.get(handler);
    if (!cached) {
      const targets = [handler, context.getClass()];
      cached = {
        meta: this.reflector.getAllAndOverride<AuthMetadata | undefined>(AUTH_METADATA, targets) ?? {},
        dashboardOnly: this.reflector.getAllAndOverride<boolean | undefined>(DASHBOARD_ONLY_METADATA, targets) ?? false,
      };
      this.metadata.set(handler, cached);
    }
    return cached;
  }
}
