import { createDvlaClient } from '../../../providers/dvla/client.js';
import type { DvlaProvider } from '../../../providers/dvla/provider.js';
import { createDvlaSimulator } from '../../../providers/dvla/simulator.js';
import { maskLicenceNumbers } from '../../encryption/mask.js';
import type { CheckProviderDefinition } from '../kind.js';

/** Its starts (and polls) run two at once per process: enough to keep 10 a second going while each waits on the database (four took no less time and slowed the case list during a drain: decision 018). */
const WORKERS = 2;

/**
 * The DVLA's Access to Driver Data (an API key, and a JWT from its authentication API with the
 * username and password of DVLA_USERNAME / DVLA_PASSWORD, at DVLA_AUTH_URL or else DVLA_URL).
 * No callbacks: an enquiry is answered at once.
 */
export const dvlaProvider: CheckProviderDefinition<DvlaProvider> = {
  name: 'dvla',
  env: { url: 'DVLA_URL', key: 'DVLA_API_KEY' },
  // its client (and simulator) keeps to the 10 requests a second itself (rate-limit.ts): its
  // starts and polls wait for their places side by side
  workers: WORKERS,
  client: (s) =>
    maskedDvla(
      createDvlaClient({
        baseUrl: s.url,
        apiKey: s.key,
        username: process.env.DVLA_USERNAME ?? '',
        password: process.env.DVLA_PASSWORD ?? '',
        ...(process.env.DVLA_AUTH_URL ? { authUrl: process.env.DVLA_AUTH_URL } : {}),
      }),
    ),
  simulator: (o) => maskedDvla(createDvlaSimulator({ clock: o.clock, dayMs: o.dayMs })),
};

/**
 * The DVLA's answers with the driver's licence number masked (encryption/mask.ts): the engine
 * logs an answer in the activity's provider log, and nothing the result keeps needs the number
 * (the enquiry itself is built from the case's encrypted licence: case-licence.ts).
 */
export function maskedDvla(p: DvlaProvider): DvlaProvider {
  return {
    retrieve: async (enquiry, signal) => maskLicenceNumbers(await p.retrieve(enquiry, signal)),
  };
}
