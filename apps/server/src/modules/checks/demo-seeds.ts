import type { DemoSeedContext } from '../../platform/module.js';
import { seedDisclosureResults } from './disclosure/demo-results.js';
import { seedDrivingLicenceResults } from './driver-data/demo-results.js';
import { seedKnowledgeTestResults } from './knowledge-test/demo-results.js';
import { seedOnlineIdvResults } from './online-idv/demo-results.js';
import { seedRtwResults } from './rtw/demo-results.js';

/**
 * Each family's demo results (a registry of its own, one line per family that has them): the
 * seed completes checks without running the engine, and these give them the result data the
 * engine would have written (module.ts's seedDemo). Only the demo seed loads them: they build
 * cases with the db factories and run kinds' services, which the engine's registry must not load.
 */
export const CHECK_DEMO_RESULTS: readonly ((ctx: DemoSeedContext) => Promise<void>)[] = [
  seedDisclosureResults,
  seedDrivingLicenceResults,
  seedKnowledgeTestResults,
  seedOnlineIdvResults,
  seedRtwResults,
];
