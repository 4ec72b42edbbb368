/**
 * The system clock, which tests move forward (`advance`) instead of sleeping. A module that decides
 * by time injects its own subclass, so moving one module's time moves no other's.
 */
export abstract class AdjustableClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
