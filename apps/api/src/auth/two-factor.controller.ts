import { Body, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  Auth,
  CurrentPrincipal,
  DashboardOnly,
  Principal,
  RecoveryCodesResponseDto,
  SessionResponseDto,
  TwoFactorService,
  TwoFactorSetupResponseDto,
} from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ApiController, Endpoint } from '@dl/platform/http';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { answerSession } from './refresh-cookie';
import { sessionMeta } from './session-meta';
import { LoginTwoFactorDto, SecondFactorDto, TwoFactorCodeDto } from './two-factor.dto';

const INVALID_CODE = { 401: 'Invalid code (wrong, already used, or a step outside ±30 s), or Invalid or expired session' } as const;

/** TOTP two-factor authentication of the signed-in account (decisions §20). */
@ApiController('auth', 'auth')
export class TwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Endpoint.post('2fa/setup', {
    access: [Auth(undefined, { rateLimit: false }), DashboardOnly()],
    summary: 'Start two-factor set-up: a new TOTP secret, its otpauth URL and QR code',
    description: 'The secret stays pending until POST /auth/2fa/enable confirms it with a code; starting again replaces it.',
    response: TwoFactorSetupResponseDto,
    errors: { 409: 'Two-factor authentication is already enabled' },
  })
  setup(@CurrentPrincipal() principal: Principal): Promise<TwoFactorSetupResponseDto> {
    return this.twoFactor.setup(principal.userId);
  }

  @Endpoint.post('2fa/enable', {
    access: [Auth(undefined, { rateLimit: false }), DashboardOnly()],
    summary: 'Confirm set-up with a code: two-factor authentication is on; the ten recovery codes are answered once',
    response: RecoveryCodesResponseDto,
    errors: { ...INVALID_CODE, 400: 'Validation error, or set-up not started', 409: 'Two-factor authentication is already enabled' },
  })
  enable(@CurrentPrincipal() principal: Principal, @Body() body: TwoFactorCodeDto): Promise<RecoveryCodesResponseDto> {
    return this.twoFactor.enable(principal.userId, body.code);
  }

  @Endpoint.post('2fa/disable', {
    access: [Auth(undefined, { rateLimit: false }), DashboardOnly()],
    summary: 'Turn two-factor authentication off with a code or a recovery code',
    status: 204,
    success: { description: 'Off; the recovery codes are gone' },
    errors: { ...INVALID_CODE, 400: 'Validation error, or two-factor authentication is not enabled' },
  })
  async disable(@CurrentPrincipal() principal: Principal, @Body() body: SecondFactorDto): Promise<void> {
    await this.twoFactor.disable(principal.userId, body);
  }

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('login/2fa', {
    summary: "Sign in, second step: the login's challenge and a code (or a recovery code) → a session",
    description:
      'Answers like POST /auth/login and sets the refresh cookie. A challenge works once, for 5 minutes, and not after 5 wrong codes.',
    public: true,
    response: SessionResponseDto,
    errors: {
      400: 'Validation error',
      401: 'Invalid code, or Invalid or expired challenge',
      429: 'Rate limit exceeded',
    },
  })
  async login(
    @Body() body: LoginTwoFactorDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionResponseDto> {
    const factor = { code: body.code, recoveryCode: body.recoveryCode };
    const session = await this.twoFactor.completeLogin(body.challengeToken, factor, sessionMeta(request, this.config));
    return answerSession(reply, this.config, session);
  }
}
