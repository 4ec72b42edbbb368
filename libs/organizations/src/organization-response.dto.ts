import { ApiProperty } from '@nestjs/swagger';
import { OrganizationSummaryDto } from '@dl/auth';

/** GET /api/organization (decisions §20). */
export class OrganizationResponseDto extends OrganizationSummaryDto {
  @ApiProperty({ description: 'Members must have two-factor authentication to use the dashboard' }) requireTwoFactor!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the organization and all its data will be deleted; null: not scheduled' })
  deletionScheduledAt!: string | null;
}

/** DELETE /api/organization: when everything of it will be deleted. */
export class DeletionScheduledResponseDto {
  @ApiProperty({ format: 'date-time' }) deletionScheduledAt!: string;
}
