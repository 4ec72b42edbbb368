import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';

/** POST /auth/signup, POST /auth/login (services from the global AuthModule). */
@Module({ controllers: [AuthController] })
export class AuthApiModule {}
