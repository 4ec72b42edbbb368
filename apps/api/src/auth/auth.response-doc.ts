import { ApiProperty } from '@nestjs/swagger';
import { Tier } from '@dl/platform/db';

export class SignupUserDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
}

export class SignupOrganizationDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: Tier }) tier!: Tier;
}

/** POST /auth/signup. */
export class SignupResponseDoc {
  @ApiProperty() accessToken!: string;
  @ApiProperty({ description: 'Seconds' }) expiresIn!: number;
  @ApiProperty({ type: SignupUserDoc }) user!: SignupUserDoc;
  @ApiProperty({ type: SignupOrganizationDoc }) organization!: SignupOrganizationDoc;
}
