import { ApiProperty } from '@nestjs/swagger';
import { Tier } from '@dl/platform/db';
import { OrganizationSummaryDto } from './organization-summary.dto';

/** A dashboard session: login, refresh and accept-invite. */
export class SessionResponseDto {
  @ApiProperty() accessToken!: string;
  @ApiProperty({ description: 'Seconds' }) expiresIn!: number;
}

export class SignupUserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
}

export class SignupOrganizationDto extends OrganizationSummaryDto {}

/** POST /auth/signup: the session plus the new account and organization. */
export class SignupResponseDto extends SessionResponseDto {
  @ApiProperty({ type: SignupUserDto }) user!: SignupUserDto;
  @ApiProperty({ type: SignupOrganizationDto }) organization!: SignupOrganizationDto;
}

/** Usage of one plan limit; `limit` null when unlimited. */
export class UsageCounterDto {
  @ApiProperty() used!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null when unlimited' }) limit!: number | null;
}

/** GET /api/usage (decisions §5). */
export class UsageResponseDto {
  @ApiProperty({ enum: Tier }) tier!: Tier;
  @ApiProperty({ type: UsageCounterDto }) links!: UsageCounterDto;
  @ApiProperty({ type: UsageCounterDto }) clicksThisMonth!: UsageCounterDto;
  @ApiProperty({ type: UsageCounterDto }) apiKeys!: UsageCounterDto;
}
