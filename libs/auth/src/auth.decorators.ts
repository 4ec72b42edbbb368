import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiErrorResponse } from '@dl/platform/http';
import { AuthGuard } from './auth.guard';
import { AUTH_METADATA, AuthMetadata, AuthOptions, DASHBOARD_ONLY_METADATA } from './auth.metadata';
import { Permission, Principal } from './principal';

/**
 * Authenticates `Authorization: Bearer <dl_ key | JWT>`, puts the Principal on the
 * request, applies the organization's rate limit and checks that the role grants
 * `permission` (403 `Your role does not allow this action`). On a controller it
 * covers every route; a method's own `@Auth(...)` replaces the controller's.
 *
 *   @Auth(Permissions.linksWrite)
 *   @Auth(Permissions.read, { missingMessage: 'Authentication required' })
 *   @Auth(Permissions.read, { rateLimit: false })
 */
export function Auth(permission?: Permission, options: AuthOptions = {}) {
  const metadata: AuthMetadata = { permission, ...options };
  return applyDecorators(
    SetMetadata(AUTH_METADATA, metadata),
    UseGuards(AuthGuard),
    ApiBearerAuth(),
    ApiErrorResponse(401, 'Missing, invalid or revoked credential'),
    ApiErrorResponse(403, 'Your role does not allow this action'),
    ApiErrorResponse(429, 'Rate limit of the plan exceeded'),
  );
}

/** JWT sessions only: an API key gets 403 `This endpoint requires a dashboard session`. Use with @Auth. */
export function DashboardOnly() {
  return applyDecorators(SetMetadata(DASHBOARD_ONLY_METADATA, true), UseGuards(AuthGuard), ApiBearerAuth());
}

/** The authenticated caller (set by @Auth). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<{ principal?: Principal }>().principal;
  if (!principal) throw new Error('@CurrentPrincipal() used on a route without @Auth()');
  return principal;
});
