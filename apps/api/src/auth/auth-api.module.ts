import { Module } from '@nestjs/common';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { AuthController } from './auth.controller';

/** POST /auth/signup, POST /auth/login (services from the global AuthModule). */
@Module({ controllers: [AuthController], providers: [AuthIpLimitGuard] })
export class AuthApiModule {}
