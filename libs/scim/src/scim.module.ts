import { Module } from '@nestjs/common';
import { ScimTokensService } from './scim-tokens';
import { ScimRepository } from './scim.repository';
import { ScimService } from './scim.service';

/** SCIM 2.0 provisioning (decisions §25). Needs identity (AuthModule: credential invalidation, passwords) and the audit recorder. */
@Module({ providers: [ScimRepository, ScimService, ScimTokensService], exports: [ScimService, ScimTokensService] })
export class ScimModule {}
