import { Module } from '@nestjs/common';
import { OrganizationsModule } from '@dl/organizations';
import { OrganizationController } from './organization.controller';

@Module({ imports: [OrganizationsModule], controllers: [OrganizationController] })
export class OrganizationApiModule {}
