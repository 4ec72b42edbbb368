import { Injectable } from '@nestjs/common';

/** "Now" for report periods and schedules; tests replace `now` to control time. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
