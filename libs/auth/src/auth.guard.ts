import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { HttpArgumentsHost } from '@nestjs/common/interfaces';
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
 * A credential known in-process on a route without rate limit is decided synchronously
 * (Nest then skips a promise per guard); see BearerStrategy.cachedPrincipal.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly metadata = new WeakMap<object, RouteAuth>();

  constructor(
    private readonly reflector: Reflector,
    private readonly bearer: BearerStrategy,
    private readonly rateLimiter: RateLimiter,
    private readonly plans: PlansService,
  ) {}

  /**
   * Synchronous (a boolean) when the credential is known in-process and the route is not
   * rate limited: no promise, no passport attempt. Otherwise a promise.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthedRequest>();
    // Already through (controller and method may both carry @Auth): the principal is set by this guard only.
    if (request.principal) return true;
    const route = this.routeMetadata(context);
    const authorization = request.headers.authorization;
    const known = typeof authorization === 'string' ? this.bearer.cachedPrincipal(authorization) : undefined;
    if (!known) return this.authenticateThenCheck(http, request, route);
    request.principal = known;
    return this.check(http, known, route);
  }

  private async authenticateThenCheck(http: HttpArgumentsHost, request: AuthedRequest, route: RouteAuth): Promise<boolean> {
    const principal = await this.bearer.authenticateHeader(request.headers.authorization, route.meta.missingMessage);
    request.principal = principal;
    return this.check(http, principal, route);
  }

  /** Dashboard-only (403), rate limit (429), role and plan (403). */
  private check(http: HttpArgumentsHost, principal: Principal, { meta, dashboardOnly }: RouteAuth): boolean | Promise<boolean> {
    if (dashboardOnly && principal.kind !== 'session') throw new DashboardOnlyError();
    if (meta.rateLimit !== false && this.rateLimiter.enabled) return this.limitThenAuthorize(http, principal, meta);
    this.authorize(principal, meta);
    return true;
  }

  private async limitThenAuthorize(http: HttpArgumentsHost, principal: Principal, meta: AuthMetadata): Promise<boolean> {
    const rl = await this.rateLimiter.consume(principal);
    const headers = {
      'X-RateLimit-Limit': String(rl.limit),
      'X-RateLimit-Remaining': String(rl.remaining),
      'X-RateLimit-Reset': String(rl.reset),
    };
    http.getResponse<FastifyReply>().headers(headers);
    if (!rl.allowed) throw new TooManyRequestsError(rl.retryAfter, headers);
    this.authorize(principal, meta);
    return true;
  }

  private authorize(principal: Principal, { permission }: AuthMetadata): void {
    if (!permission) return;
    if (!roleAllows(principal.role, permission)) throw new InsufficientRoleError();
    const planMessage = PLAN_GATED_PERMISSIONS.get(permission);
    if (planMessage && !this.plans.limits(principal.tier).eventAnalytics) throw new PlanFeatureError(planMessage);
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
