import { Injectable } from '@nestjs/common';

/**
 * The time dashboard sessions decide by (refresh rotation and its reuse interval). Production
 * reads the system clock; tests move it forward (`advance`) instead of sleeping.
 */
@Injectable()
export class SessionClock {
  private skewMs = 0;

  now(): Date {
    return new Date(Date.now() + this.skewMs);
  }

  advance(ms: number): void {
    this.skewMs += ms;
  }
}
