import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { BILLABLE_TIERS, BILLING_INTERVALS, BillableTier, BillingInterval } from '@dl/platform/config';

/** POST /api/billing/checkout. A tier without prices in STRIPE_PRICES is refused by the service. */
export class CheckoutDto {
  @ApiProperty({ enum: BILLABLE_TIERS })
  @IsIn(BILLABLE_TIERS as unknown as string[], { message: `must be one of ${BILLABLE_TIERS.join(', ')}` })
  tier!: BillableTier;

  @ApiProperty({ enum: BILLING_INTERVALS })
  @IsIn(BILLING_INTERVALS as unknown as string[], { message: 'must be month or year' })
  interval!: BillingInterval;
}
