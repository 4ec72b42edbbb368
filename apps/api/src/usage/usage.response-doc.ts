import { ApiProperty } from '@nestjs/swagger';
import { Tier } from '@dl/platform/db';

export class UsageCounterDoc {
  @ApiProperty() used!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null when unlimited' }) limit!: number | null;
}

/** GET /api/usage. */
export class UsageResponseDoc {
  @ApiProperty({ enum: Tier }) tier!: Tier;
  @ApiProperty({ type: UsageCounterDoc }) links!: UsageCounterDoc;
  @ApiProperty({ type: UsageCounterDoc }) clicksThisMonth!: UsageCounterDoc;
  @ApiProperty({ type: UsageCounterDoc }) apiKeys!: UsageCounterDoc;
}
