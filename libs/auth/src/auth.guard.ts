import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { HttpArgumentsHost } from '@nestjs/common/interfaces';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { clientIp, setRequestActor, TooManyRequestsError } from '@dl/platform/http';
import { ApiKeyScope, principalHasScope, requiredScope } from './api-key-scopes';
import { AuthMetadata, AUTH_METADATA, DASHBOARD_ONLY_METADATA } from './auth.metadata';
import { ApiKeyScopeError, DashboardOnlyError, InsufficientRoleError, OrganizationSuspendedError, PlanFeatureError } from './auth.errors';
import { Authenticator } from './authenticator.service';
import { OrganizationDeletionScheduledError, TwoFactorRequiredError } from './two-factor/two-factor.errors';
import { BearerStrategy } from './bearer.strategy';
import { PlansService } from './plans';
import { Principal } from './principal';
import { RateLimiter } from './rate-limiter.service';
import { PLAN_GATED_PERMISSIONS, roleAllows } from './role-permissions';

interface RouteAuth {
  meta: AuthMetadata;
  dashboardOnly: boolean;
  /** What an API key needs for this route (decisions §25). */
  scope: ApiKeyScope;
}
type AuthedRequest = FastifyRequest & { principal?: Principal | null };

/** The Authorization header, or on a `queryKey` route without one, a `dl_` key of `?key=` as its bearer value. */
function authorizationOf(request: FastifyRequest, route: RouteAuth): string | string[] | undefined {
  const header = request.headers.authorization;
  if (header !== undefined || !route.meta.queryKey) return header;
  const key = (request.query as Record<string, unknown> | undefined)?.key;
  return typeof key === 'string' && key.startsWith('dl_') ? `Bearer ${key}` : undefined;
}

/** `/auth/*`: a member held back by their organization's 2FA requirement can still set it up there (decisions §20). */
function isAccountRoute(request: FastifyRequest): boolean {
  return request.url.startsWith('/auth/');
}

/**
 * The guard behind @Auth/@DashboardOnly: authenticate through passport-http-bearer (401) → dashboard-only (403) →
 * rate limit (429, headers on every counted response) → role and plan (403) → API-key scope (403).
 * An API key's use (lastUsedAt, lastUsedIp) is recorded here, throttled to once a minute per key.
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
    private readonly authenticator: Authenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    const authorization = authorizationOf(request, route);
    const known = typeof authorization === 'string' ? this.bearer.cachedPrincipal(authorization) : undefined;
    if (!known) return this.authenticateThenCheck(http, request, route, authorization);
    request.principal = known;
    this.recordUse(request, known);
    return this.check(http, known, route);
  }

  private async authenticateThenCheck(
    http: HttpArgumentsHost,
    request: AuthedRequest,
    route: RouteAuth,
    authorization: string | string[] | undefined,
  ): Promise<boolean> {
    const principal = await this.bearer.authenticateHeader(authorization, route.meta.missingMessage);
    request.principal = principal;
    this.recordUse(request, principal);
    return this.check(http, principal, route);
  }

  private recordUse(request: AuthedRequest, principal: Principal): void {
    // Audit entries recorded while serving this request name this actor.
    setRequestActor(principal.apiKeyId ? { type: 'apiKey', id: principal.apiKeyId } : { type: 'user', id: principal.userId });
    if (!principal.apiKeyId) return;
    this.authenticator.touch(principal, () =>
      clientIp(request.headers, request.raw.socket?.remoteAddress ?? request.ip, this.config.TRUSTED_CLIENT_IP_HEADER),
    );
  }

  /** Dashboard-only, deletion scheduled, 2FA required (403), rate limit (429), role and plan (403). */
  private check(http: HttpArgumentsHost, principal: Principal, route: RouteAuth): boolean | Promise<boolean> {
    if (route.dashboardOnly && principal.kind !== 'session') throw new DashboardOnlyError();
    if (principal.suspended) throw new OrganizationSuspendedError();
    if (principal.deletionScheduled && !route.meta.duringDeletion) throw new OrganizationDeletionScheduledError();
    if (principal.twoFactorMissing && !isAccountRoute(http.getRequest<FastifyRequest>())) throw new TwoFactorRequiredError();
    if (route.meta.rateLimit !== false && this.rateLimiter.enabled) return this.limitThenAuthorize(http, principal, route);
    this.authorize(principal, route);
    return true;
  }

  private async limitThenAuthorize(http: HttpArgumentsHost, principal: Principal, route: RouteAuth): Promise<boolean> {
    const rl = await this.rateLimiter.consume(principal);
    const headers = {
      'X-RateLimit-Limit': String(rl.limit),
      'X-RateLimit-Remaining': String(rl.remaining),
      'X-RateLimit-Reset': String(rl.reset),
    };
    http.getResponse<FastifyReply>().headers(headers);
    if (!rl.allowed) throw new TooManyRequestsError(rl.retryAfter, headers);
    this.authorize(principal, route);
    return true;
  }

  private authorize(principal: Principal, { meta: { permission }, scope }: RouteAuth): void {
    if (permission) {
      if (!roleAllows(principal.role, permission)) throw new InsufficientRoleError();
      const planMessage = PLAN_GATED_PERMISSIONS.get(permission);
      if (planMessage && !this.plans.limits(principal.tier).eventAnalytics) throw new PlanFeatureError(planMessage);
    }
    if (!principalHasScope(principal, scope)) throw new ApiKeyScopeError(scope);
  }

  /** Route metadata, read once per handler. */
  private routeMetadata(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    let cached = this.metadata.get(handler);
    if (!cached) {
      const targets = [handler, context.getClass()];
      const meta = this.reflector.getAllAndOverride<AuthMetadata | undefined>(AUTH_METADATA, targets) ?? {};
      cached = {
        meta,
        dashboardOnly: this.reflector.getAllAndOverride<boolean | undefined>(DASHBOARD_ONLY_METADATA, targets) ?? false,
        scope: requiredScope(meta.permission, meta.scope),
      };
      this.metadata.set(handler, cached);
    }
    return cached;
  }
}
