import { Injectable } from '@nestjs/common';
import { AdjustableClock } from '@dl/platform/async';

/**
 * The time billing decides by (the 7-day grace). Production reads the system clock; tests move
 * it forward (`advance`) to see a grace end without waiting a week.
 */
@Injectable()
export class BillingClock extends AdjustableClock {}
