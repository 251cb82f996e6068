/** Injected time, so expiry, reminders and maintenance windows are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-01-15T09:00:00Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  set(to: Date | string): void {
    this.t = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** A timestamp as the API answers it: ISO 8601 in UTC, or null. */
export const iso = (d: Date | null) => (d ? d.toISOString() : null);
