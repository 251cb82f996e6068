import type { Clock } from '../../platform/clock.js';
import { DisclosureSimulator } from '../dbs-basic/simulator.js';

/**
 * The e-bulk simulator: standard and enhanced applications with barred-list searches, stages
 * over simulated days (README.md of dbs-basic and this folder list the test data).
 */
export function createEbulkSimulator(
  clock: Clock,
  callbackSecret: string,
  signingClock?: Clock,
  dayMs?: number,
): DisclosureSimulator {
  return new DisclosureSimulator({
    name: 'ebulk',
    clock,
    callbackSecret,
    ...(signingClock ? { signingClock } : {}),
    ...(dayMs ? { dayMs } : {}),
  });
}
