import { Injectable } from '@nestjs/common';
import { AdjustableClock } from '@dl/platform/async';

/**
 * The time dashboard sessions decide by (refresh rotation and its reuse interval). Production
 * reads the system clock; tests move it forward (`advance`) instead of sleeping.
 */
@Injectable()
export class SessionClock extends AdjustableClock {}
