import { Module } from '@nestjs/common';
import { PlansService } from '@dl/auth';
import { DnsVerifier } from './dns-verifier';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';

@Module({ providers: [DomainsRepository, DomainsService, DnsVerifier, PlansService], exports: [DomainsService, DomainsRepository] })
export class DomainsModule {}
