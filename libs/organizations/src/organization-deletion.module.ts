import { Module } from '@nestjs/common';
import { OrganizationDeletionService } from './organization-deletion.service';
import { OrganizationPurgeRepository } from './organization-purge.repository';

/** The worker's deletion of organizations whose date has come (decisions §20). Needs Prisma and Redis (PlatformModule). */
@Module({ providers: [OrganizationPurgeRepository, OrganizationDeletionService], exports: [OrganizationDeletionService] })
export class OrganizationDeletionModule {}
