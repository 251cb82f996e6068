import { createTestPlatformClient } from '../../../providers/test-platform/client.js';
import {
  type KnowledgeTestProvider,
  testCallbackSchema,
} from '../../../providers/test-platform/provider.js';
import {
  TEST_SIGNATURE_HEADER,
  verifyTestSignature,
} from '../../../providers/test-platform/signature.js';
import { TestPlatformSimulator } from '../../../providers/test-platform/simulator.js';
import type { CheckProviderDefinition } from '../kind.js';

/** The online test platform (knowledge tests): invitations, reads and signed callbacks. */
export const testPlatformProvider: CheckProviderDefinition<KnowledgeTestProvider> = {
  name: 'test-platform',
  env: { url: 'KNOWLEDGE_TEST_API_URL', key: 'KNOWLEDGE_TEST_API_KEY' },
  client: (s) => createTestPlatformClient({ baseUrl: s.url, apiKey: s.key }),
  simulator: (o) =>
    new TestPlatformSimulator({
      clock: o.clock,
      signingClock: o.signingClock,
      callbackSecret: o.callbackSecret,
      dayMs: o.dayMs,
    }),
  callbacks: {
    schema: testCallbackSchema,
    secretEnv: 'KNOWLEDGE_TEST_CALLBACK_SECRET',
    signatureHeader: TEST_SIGNATURE_HEADER,
    verify: verifyTestSignature,
  },
};
