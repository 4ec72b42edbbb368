import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { AccountsService } from '@dl/auth';
import { LoginDto, SessionResponse, SignupDto } from './auth.dto';
import { SignupResponse, toSignupResponse } from './auth.mapper';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { SignupResponseDoc } from './auth.response-doc';

/** Dashboard sessions (decisions §2). Not under /api: no credential, not rate limited by plan. */
@ApiTags('auth')
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('auth')
export class AuthController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('signup')
  @ApiOperation({ summary: 'Create an account, its organization and a dashboard session', security: [] })
  @ApiCreatedResponse({ type: SignupResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'An account with this email already exists' })
  async signup(@Body() body: SignupDto): Promise<SignupResponse> {
    return toSignupResponse(await this.accounts.signup(body));
  }

  @Post('login')
  @ApiOperation({ summary: 'Sign in: a dashboard session (JWT) for one organization', security: [] })
  @HttpCode(200)
  @ApiOkResponse({ type: SessionResponse })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Invalid email or password' })
  login(@Body() body: LoginDto): Promise<SessionResponse> {
    return this.accounts.login(body);
  }
}
