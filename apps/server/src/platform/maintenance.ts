import { gt } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import type { Clock } from './clock.js';
import type { MaintenanceWindowView } from './errors.js';
import { SYSTEM_TX } from './service-context.js';
import { maintenanceWindows } from './tables/maintenance.table.js';

interface Window {
  start: Date;
  end: Date;
  warningStart: Date;
}

const RELOAD_MS = 5_000;

export function viewWindow(w: Window): MaintenanceWindowView {
  return {
    start: w.start.toISOString(),
    end: w.end.toISOString(),
    warning_start: w.warningStart.toISOString(),
  };
}

/** The notification channel on which a change of the windows reaches every process. */
export const MAINTENANCE_CHANNEL = 'kestrel_maintenance';

/**
 * Maintenance windows that have not ended, cached in process for a few seconds so the check on
 * every request costs no round trip. A committed change through the ops endpoint calls
 * `changed()`: this process and, by a database notification, every other one reload at once.
 */
export class MaintenanceService {
  private windows: Window[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;
  /** Moves on every forgetting: a load begun before it is used but not kept. */
  private epoch = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reloadMs = RELOAD_MS,
  ) {}

  /** Starts hearing changes made by other processes. */
  start(): Promise<void> {
    return this.db.listen(MAINTENANCE_CHANNEL, () => this.forget());
  }

  forget(): void {
    this.epoch++;
    this.loadedAt = Number.NEGATIVE_INFINITY;
  }

  /** After a change has committed: reload here and tell the other processes. */
  async changed(): Promise<void> {
    this.forget();
    await this.db.notify(MAINTENANCE_CHANNEL, 'changed').catch(() => undefined);
  }

  private async ensure(): Promise<void> {
    if (performance.now() - this.loadedAt < this.reloadMs) return;
    const epoch = this.epoch;
    this.loading ??= this.db
      .transaction(SYSTEM_TX, (tx) =>
        tx
          .select({
            start: maintenanceWindows.start,
            end: maintenanceWindows.end,
            warningStart: maintenanceWindows.warningStart,
          })
          .from(maintenanceWindows)
          .where(gt(maintenanceWindows.end, this.clock.now()))
          .orderBy(maintenanceWindows.start),
      )
      .then((rows) => {
        this.windows = rows;
        if (epoch === this.epoch) this.loadedAt = performance.now();
      })
      .finally(() => {
        this.loading = null;
      });
    await this.loading;
  }

  /** The window open now (start <= now < end), if any. */
  async open(): Promise<Window | null> {
    await this.ensure();
    const t = this.clock.now().getTime();
    return this.windows.find((w) => w.start.getTime() <= t && t < w.end.getTime()) ?? null;
  }

  /** The window to announce: open now, or in its warning period (warning_start <= now < end). */
  async announced(): Promise<Window | null> {
    await this.ensure();
    const t = this.clock.now().getTime();
    return this.windows.find((w) => w.warningStart.getTime() <= t && t < w.end.getTime()) ?? null;
  }
}
