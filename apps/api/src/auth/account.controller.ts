import { Body, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AcceptedResponseDto,
  Auth,
  CurrentPrincipal,
  DashboardOnly,
  EmailVerificationService,
  EmailVerifiedResponseDto,
  MeResponseDto,
  MeService,
  PasswordResetService,
  Principal,
  SessionResponseDto,
} from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ApiController, Endpoint } from '@dl/platform/http';
import { ChangePasswordDto, ForgotPasswordDto, ResetPasswordDto, UpdateMeDto, VerifyEmailDto } from './auth.dto';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { answerSession } from './refresh-cookie';
import { sessionMeta } from './session-meta';

const INVALID_TOKEN = 'Invalid or expired token (unknown, used, expired or malformed), or Validation error';

/** The signed-in account, email verification and passwords (decisions §20). */
@ApiController('auth', 'auth')
export class AccountController {
  constructor(
    private readonly me: MeService,
    private readonly verification: EmailVerificationService,
    private readonly resets: PasswordResetService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Endpoint.get('me', { access: [Auth(), DashboardOnly()], summary: 'The signed-in account, its organization and role, and all its organizations', response: MeResponseDto })
  getMe(@CurrentPrincipal() principal: Principal): Promise<MeResponseDto> {
    return this.me.me(principal);
  }

  @Endpoint.patch('me', { access: [Auth(), DashboardOnly()], summary: "Rename the signed-in account's owner", response: MeResponseDto, errors: { 400: 'Validation error' } })
  updateMe(@CurrentPrincipal() principal: Principal, @Body() body: UpdateMeDto): Promise<MeResponseDto> {
    return this.me.rename(principal, body.name);
  }

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('verify-email', {
    summary: 'Confirm the email address with the `dlv_` token of the verification email',
    public: true,
    response: EmailVerifiedResponseDto,
    errors: { 400: INVALID_TOKEN, 429: 'Rate limit exceeded' },
  })
  async verifyEmail(@Body() body: VerifyEmailDto): Promise<EmailVerifiedResponseDto> {
    await this.verification.verify(body.token);
    return { verified: true };
  }

  @Endpoint.post('resend-verification', {
    access: [Auth(), DashboardOnly()],
    summary: 'Send the verification email again (at most one a minute)',
    status: 202,
    response: AcceptedResponseDto,
    errors: { 429: 'A verification email was sent less than a minute ago (`retryAfter`)' },
  })
  async resendVerification(@CurrentPrincipal() principal: Principal): Promise<AcceptedResponseDto> {
    await this.verification.resend(principal.userId);
    return {};
  }

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('forgot-password', {
    summary: 'Email a password reset link',
    description:
      'Answers 202 `{}` for any address, known or not, at once; at most one email a minute per address. The emailed `dlr_` token lasts an hour. ' +
      "An address of a domain whose organization enforces single sign-on is refused (403), whether or not it has an account.",
    public: true,
    status: 202,
    response: AcceptedResponseDto,
    errors: { 400: 'Validation error', 403: 'Single sign-on required for <domain>', 429: 'Rate limit exceeded' },
  })
  async forgotPassword(@Body() body: ForgotPasswordDto): Promise<AcceptedResponseDto> {
    await this.resets.assertResetAllowed(body.email);
    this.resets.forgetLater(body.email);
    return {};
  }

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.post('reset-password', {
    summary: 'Set a new password with the `dlr_` token; signs out every other session and answers like login',
    public: true,
    response: SessionResponseDto,
    errors: { 400: INVALID_TOKEN, 403: 'Single sign-on required for <domain>', 429: 'Rate limit exceeded' },
  })
  async resetPassword(
    @Body() body: ResetPasswordDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionResponseDto> {
    const session = await this.resets.reset(body.token, body.password, sessionMeta(request, this.config));
    return answerSession(reply, this.config, session);
  }

  @Endpoint.post('change-password', {
    access: [Auth(), DashboardOnly()],
    summary: "Change the signed-in account's password; signs out its other sessions",
    status: 204,
    success: { description: 'Changed' },
    errors: { 400: 'Validation error (`validation.currentPassword = Wrong password`)' },
  })
  changePassword(@CurrentPrincipal() principal: Principal, @Body() body: ChangePasswordDto): Promise<void> {
    return this.resets.change(principal, body.currentPassword, body.newPassword);
  }
}
