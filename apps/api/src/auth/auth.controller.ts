import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountsService } from '@dl/auth';
import { LoginDto, SessionResponse, SignupDto } from './auth.dto';
import { SignupResponse, toSignupResponse } from './auth.mapper';

/** Dashboard sessions (decisions §2). Not under /api: no credential, not rate limited by plan. */
@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('signup')
  async signup(@Body() body: SignupDto): Promise<SignupResponse> {
    return toSignupResponse(await this.accounts.signup(body));
  }

  @Post('login')
  @HttpCode(200)
  login(@Body() body: LoginDto): Promise<SessionResponse> {
    return this.accounts.login(body);
  }
}
