import { Body, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccountsService,
  Authenticator,
  Principal,
  InvitationsService,
  LoginResponseDto,
  SessionResponseDto,
  SessionsService,
  SignupResponseDto,
  toSignupResponse,
} from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ApiController, Endpoint } from '@dl/platform/http';
import { AcceptInviteDto, LoginDto, SignupDto } from './auth.dto';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { answerSession, clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';
import { SameOriginGuard } from './same-origin.guard';
import { sessionMeta } from './session-meta';

const REFRESH_NOTE =
  'Also sets the dashboard\'s refresh cookie (`dl_refresh`: HttpOnly, SameSite=Strict, Path=/auth), used by POST /auth/refresh.';
const RATE_LIMITED = { 429: 'Rate limit exceeded' } as const;
const CROSS_SITE = { 403: 'Cross-site request refused (an Origin of another site)' } as const;

/**
 * Dashboard sessions (decisions §2). Not under /api: no credential, not rate limited by plan;
 * the password routes (signup, login, accept-invite) are limited per client IP (decisions §14).
 */
@ApiController('auth', 'auth')
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly invitations: InvitationsService,
    private readonly authenticator: Authenticator,
  ) {}

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('signup', {
    summary: 'Create an account, its organization and a dashboard session',
    description: REFRESH_NOTE,
    public: true,
    status: 201,
    response: SignupResponseDto,
    errors: { ...RATE_LIMITED, 400: 'Validation error', 409: 'An account with this email already exists' },
  })
  async signup(@Body() body: SignupDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignupResponseDto> {
    const result = await this.accounts.signup(body, sessionMeta(request, this.config));
    setRefreshCookie(reply, this.config, result.session);
    return toSignupResponse(result);
  }

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('login', {
    summary: 'Sign in: a dashboard session (JWT) for one organization',
    description: `${REFRESH_NOTE} With two-factor authentication on, answers \`{twoFactorRequired: true, challengeToken}\` instead (no cookie): send it with a code to POST /auth/login/2fa.`,
    public: true,
    response: LoginResponseDto,
    errors: { ...RATE_LIMITED, 400: 'Validation error', 401: 'Invalid email or password', 403: 'Single sign-on required for <domain>' },
  })
  async login(@Body() body: LoginDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<LoginResponseDto> {
    const result = await this.accounts.login(body, sessionMeta(request, this.config));
    if ('twoFactorRequired' in result) return result;
    return answerSession(reply, this.config, result);
  }

  @UseGuards(SameOriginGuard)
  @Endpoint.post('refresh', {
    summary: "A fresh dashboard session from the refresh cookie (the dashboard's reload)",
    description:
      'Reads the `dl_refresh` cookie set by signup or login and answers a new access token with the member\'s current role, ' +
      'rotating the cookie: the cookie just rotated away, presented again within 10 s, gets the current one; later, or an older one, ends the session (decisions §20). ' +
      'Sessions end after 30 days unused or 90 days in all. Not readable cross-origin (CORS never allows credentials).',
    public: true,
    response: SessionResponseDto,
    errors: { ...RATE_LIMITED, ...CROSS_SITE, 401: 'Invalid or expired session (no cookie, expired, revoked, replayed, or no longer a member)' },
  })
  async refresh(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponseDto> {
    try {
      const session = await this.sessions.refresh(readRefreshCookie(request));
      return answerSession(reply, this.config, session);
    } catch (err) {
      clearRefreshCookie(reply, this.config);
      throw err;
    }
  }

  @UseGuards(SameOriginGuard)
  @Endpoint.post('logout', {
    summary: "Sign out of the dashboard: ends the cookie's session and clears the cookie",
    public: true,
    status: 204,
    success: { description: 'Signed out' },
    errors: { ...RATE_LIMITED, ...CROSS_SITE },
  })
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.signOut(readRefreshCookie(request));
    clearRefreshCookie(reply, this.config);
  }

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('accept-invite', {
    summary: 'Accept an invitation and join the organization',
    description:
      'By the invited email\'s account (decisions §20): none, a verified account is created with `name` and `password`; ' +
      'a verified account must send its own session (`Authorization: Bearer <JWT>`); an unverified account is claimed: ' +
      '`password` replaces its password, and its sessions and API keys are revoked. Answers like login with a session ' +
      'for the inviting organization. The token works once.',
    public: true,
    response: SessionResponseDto,
    errors: {
      ...RATE_LIMITED,
      400: 'Invalid or expired invitation (unknown, used, revoked or expired token), or Validation error',
      401: 'Sign in as the invited email to accept (the email has a verified account, and this is not its session)',
      409: 'This user is already a member of the organization',
    },
  })
  async acceptInvite(
    @Body() body: AcceptInviteDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionResponseDto> {
    const session = await this.invitations.accept(body, await this.caller(request), sessionMeta(request, this.config));
    return answerSession(reply, this.config, session);
  }

  /** The signed-in caller of a public route, if its Authorization header holds a valid credential. */
  private async caller(request: FastifyRequest): Promise<Principal | null> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer ([^ ]+)$/i.exec(header) : null;
    if (!match) return null;
    return this.authenticator.authenticateToken(match[1]).catch(() => null);
  }
}
