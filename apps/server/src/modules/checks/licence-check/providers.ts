import { createDavisClient } from '../../../providers/davis/client.js';
import type { DavisProvider } from '../../../providers/davis/provider.js';
import { createDavisSimulator } from '../../../providers/davis/simulator.js';
import { maskLicenceNumbers } from '../../encryption/mask.js';
import type { CheckProviderDefinition } from '../kind.js';

/** Its starts (and polls) run two at once per process: enough to keep 10 a second going while each waits on the database (four took no less time and slowed the case list during a drain: decision 018). */
const WORKERS = 2;

/** The licence-checking service (a bearer API key; polled, no callbacks). */
export const davisProvider: CheckProviderDefinition<DavisProvider> = {
  name: 'davis',
  env: { url: 'DAVIS_URL', key: 'DAVIS_API_KEY' },
  // its client (and simulator) keeps to the 10 requests a second itself (rate-limit.ts): its
  // starts and polls wait for their places side by side
  workers: WORKERS,
  client: (s) => maskedDavis(createDavisClient({ baseUrl: s.url, apiKey: s.key })),
  simulator: (o) => maskedDavis(createDavisSimulator({ clock: o.clock, dayMs: o.dayMs })),
};

/**
 * The service's checks with the licence number masked (encryption/mask.ts): each answer (a
 * registration, a poll, a re-check, the email confirmation) is logged in the activity's provider
 * log and its licence kept in the result, and neither needs the plain number (the registration
 * sends it from the case's encrypted licence: case-licence.ts).
 */
export function maskedDavis(p: DavisProvider): DavisProvider {
  return {
    register: async (driver, signal) => maskLicenceNumbers(await p.register(driver, signal)),
    check: async (id, signal) => maskLicenceNumbers(await p.check(id, signal)),
    recheck: async (id, signal) => maskLicenceNumbers(await p.recheck(id, signal)),
    confirmEmail: async (id, email, signal) =>
      maskLicenceNumbers(await p.confirmEmail(id, email, signal)),
  };
}
