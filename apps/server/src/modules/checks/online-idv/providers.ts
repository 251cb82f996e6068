import { IdvApiClient } from '../../../providers/idv/client.js';
import type { IdvProvider } from '../../../providers/idv/provider.js';
import { idvEngineCallbackSchema } from '../../../providers/idv/result-schema.js';
import { IDV_SIGNATURE_HEADER, verifyIdvSignature } from '../../../providers/idv/signature.js';
import { IdvSimulator } from '../../../providers/idv/simulator.js';
import type { CheckProviderDefinition } from '../kind.js';

/**
 * The certified identity service provider (providers/idv): sessions the subject opens from the
 * portal (modules/online-idv), results fetched by the engine and posted back as signed callbacks
 * to the engine's callback route (`IDV-Signature`, README "Callbacks").
 */
export const idvProvider: CheckProviderDefinition<IdvProvider> = {
  name: 'idv',
  env: { url: 'IDV_API_URL', key: 'IDV_API_KEY' },
  client: (s) => new IdvApiClient({ apiUrl: s.url, apiKey: s.key }),
  simulator: (o) =>
    new IdvSimulator({
      clock: o.clock,
      signingClock: o.signingClock,
      callbackSecret: o.callbackSecret,
    }),
  callbacks: {
    schema: idvEngineCallbackSchema,
    secretEnv: 'IDV_CALLBACK_SECRET',
    signatureHeader: IDV_SIGNATURE_HEADER,
    verify: verifyIdvSignature,
  },
};
