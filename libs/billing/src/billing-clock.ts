import { Injectable } from '@nestjs/common';

/**
 * The time billing decides by (the 7-day grace). Production reads the system clock; tests move
 * it forward (`advance`) to see a grace end without waiting a week.
 */
@Injectable()
export class BillingClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
