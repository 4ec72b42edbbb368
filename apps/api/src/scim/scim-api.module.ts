import { Module } from '@nestjs/common';
import { ScimModule } from '@dl/scim';
import { ScimController, ScimTokenGuard } from './scim.controller';
import { ScimTokensController } from './scim-tokens.controller';

@Module({ imports: [ScimModule], controllers: [ScimController, ScimTokensController], providers: [ScimTokenGuard] })
export class ScimApiModule {}
