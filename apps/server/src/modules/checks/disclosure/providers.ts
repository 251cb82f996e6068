import { applicationCallbackSchema } from '@kestrel/domain';
import { isSignedWebhook } from '../../../platform/webhooks.js';
import { createDbsBasicClient } from '../../../providers/dbs-basic/client.js';
import type { DisclosureProvider } from '../../../providers/dbs-basic/provider.js';
import { SIGNATURE_HEADER } from '../../../providers/dbs-basic/signature.js';
import { DisclosureSimulator } from '../../../providers/dbs-basic/simulator.js';
import { createEbulkClient } from '../../../providers/ebulk/client.js';
import { createEbulkSimulator } from '../../../providers/ebulk/simulator.js';
import type { CheckProviderDefinition } from '../kind.js';

/** Both sign their callbacks the same way (PROVIDERS.md): the platform's webhook scheme. */
const signedCallbacks = (secretEnv: string) => ({
  schema: applicationCallbackSchema,
  secretEnv,
  signatureHeader: SIGNATURE_HEADER,
  verify: isSignedWebhook,
});

/** The basic-disclosure service (basic checks): its client, simulator and signed callbacks. */
export const dbsBasicProvider: CheckProviderDefinition<DisclosureProvider> = {
  name: 'dbs-basic',
  env: { url: 'DBS_BASIC_API_URL', key: 'DBS_BASIC_API_KEY' },
  client: (s) => createDbsBasicClient({ baseUrl: s.url, apiKey: s.key }),
  simulator: (o) =>
    new DisclosureSimulator({
      name: 'dbs-basic',
      clock: o.clock,
      callbackSecret: o.callbackSecret,
      signingClock: o.signingClock,
      dayMs: o.dayMs,
    }),
  callbacks: signedCallbacks('DBS_BASIC_CALLBACK_SECRET'),
};

/** The e-bulk registered body (standard and enhanced checks). */
export const ebulkProvider: CheckProviderDefinition<DisclosureProvider> = {
  name: 'ebulk',
  env: { url: 'EBULK_API_URL', key: 'EBULK_API_KEY' },
  client: (s) => createEbulkClient({ baseUrl: s.url, apiKey: s.key }),
  simulator: (o) => createEbulkSimulator(o.clock, o.callbackSecret, o.signingClock, o.dayMs),
  callbacks: signedCallbacks('EBULK_CALLBACK_SECRET'),
};
