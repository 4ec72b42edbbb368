import { Module } from '@nestjs/common';
import { PlansService } from '@dl/auth';
import { SafetyModule } from '@dl/safety';
import { DnsVerifier } from './dns-verifier';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';

@Module({ imports: [SafetyModule], providers: [DomainsRepository, DomainsService, DnsVerifier, PlansService], exports: [DomainsService, DomainsRepository] })
export class DomainsModule {}
