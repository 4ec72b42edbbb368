import { Body, Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService, InvitationsService, SessionRefreshService } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { AcceptInviteDto, LoginDto, SessionResponse, SignupDto } from './auth.dto';
import { SignupResponse, toSignupResponse } from './auth.mapper';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { SignupResponseDoc } from './auth.response-doc';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';

const REFRESH_NOTE =
  'Also sets the dashboard\'s refresh cookie (`dl_refresh`: HttpOnly, SameSite=Strict, Path=/auth), used by POST /auth/refresh.';

/**
 * Dashboard sessions (decisions §2). Not under /api: no credential, not rate limited by plan;
 * the password routes (signup, login, accept-invite) are limited per client IP (decisions §14).
 */
@ApiTags('auth')
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('auth')
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly refreshes: SessionRefreshService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly invitations: InvitationsService,
  ) {}

  @Post('signup')
  @UseGuards(AuthIpLimitGuard)
  @ApiOperation({ summary: 'Create an account, its organization and a dashboard session', description: REFRESH_NOTE, security: [] })
  @ApiCreatedResponse({ type: SignupResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'An account with this email already exists' })
  async signup(@Body() body: SignupDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignupResponse> {
    const result = await this.accounts.signup(body);
    setRefreshCookie(reply, this.config, this.refreshes.issue(result.user.id, result.organization.id));
    return toSignupResponse(result);
  }

  @Post('login')
  @UseGuards(AuthIpLimitGuard)
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in: a dashboard session (JWT) for one organization', description: REFRESH_NOTE, security: [] })
  @ApiOkResponse({ type: SessionResponse })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Invalid email or password' })
  async login(@Body() body: LoginDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    const session = await this.accounts.login(body);
    const claims = this.refreshes.claimsOf(session.accessToken);
    if (claims) setRefreshCookie(reply, this.config, this.refreshes.issue(claims.sub, claims.org));
    return session;
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: "A fresh dashboard session from the refresh cookie (the dashboard's reload)",
    description:
      'Reads the `dl_refresh` cookie set by signup or login and answers a new access token with the member\'s current role, renewing the cookie. Not readable cross-origin (CORS never allows credentials).',
    security: [],
  })
  @ApiOkResponse({ type: SessionResponse })
  @ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Invalid or expired session (no cookie, expired, or no longer a member)' })
  async refresh(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    try {
      const result = await this.refreshes.refresh(readRefreshCookie(request));
      setRefreshCookie(reply, this.config, result.refresh);
      return { accessToken: result.accessToken, expiresIn: result.expiresIn };
    } catch (err) {
      clearRefreshCookie(reply, this.config);
      throw err;
    }
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: "Sign out of the dashboard: clears the refresh cookie", security: [] })
  @ApiNoContentResponse({ description: 'Signed out' })
  logout(@Res({ passthrough: true }) reply: FastifyReply): void {
    clearRefreshCookie(reply, this.config);
  }

  @Post('accept-invite')
  @UseGuards(AuthIpLimitGuard)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation: create the account and join the organization',
    description:
      'Creates the account of the invited email with this name and password (or, when the email has an account ' +
      'by now, checks its password) and the membership with the invited role, then answers like login with a ' +
      'session for the inviting organization. The token works once.',
    security: [],
  })
  @ApiOkResponse({ type: SessionResponse })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Invalid or expired invitation (unknown, used, revoked or expired token), or Validation error' })
  @ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Invalid email or password (the email has an account and this is not its password)' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'This user is already a member of the organization' })
  async acceptInvite(@Body() body: AcceptInviteDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    const session = await this.invitations.accept(body);
    const claims = this.refreshes.claimsOf(session.accessToken);
    if (claims) setRefreshCookie(reply, this.config, this.refreshes.issue(claims.sub, claims.org));
    return session;
  }
}
