import { Module } from '@nestjs/common';
import { DomainsModule } from '@dl/domains';
import { DomainsController } from './domains.controller';

@Module({ imports: [DomainsModule], controllers: [DomainsController] })
export class DomainsApiModule {}
