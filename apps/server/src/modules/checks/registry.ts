import { type EngineRunKind, isEngineRunKind } from '@kestrel/domain';
import { dbsBasicKind, dbsEnhancedKind, dbsStandardKind } from './disclosure/kind.js';
import { driverDataKind } from './driver-data/kind.js';
import type { CheckProviderDefinition, EngineKind } from './kind.js';
import { knowledgeTestKind } from './knowledge-test/kind.js';
import { licenceCheckKind } from './licence-check/kind.js';
import { onlineIdvKind } from './online-idv/kind.js';
import { rtwKind } from './rtw/kind.js';
import { dbsUpdateKind } from './update-service/kind.js';

/*
 * The one registry of the kinds of check the engine runs: for each activity type code, its
 * definition (kind.ts: its provider, what starts it, its request, how the provider's answers,
 * polls and callbacks map to an activity state and typed result_data, and when it is complete),
 * each in the kind's own folder. States and transitions are the domain's (states.ts): a move the
 * domain refuses is refused here too (changeActivity). The kinds are the domain registry's
 * (ACTIVITY_KINDS entries with `engine`): the compiler holds the two equal. The engine's
 * providers, their configuration and their callback endpoints all come from these entries, and
 * so do the kinds' own jobs (jobs.ts) and routes (module.ts). Their demo results are a registry
 * of their own (demo-seeds.ts), loaded only by the demo seed.
 */
export const CHECK_KINDS: { readonly [K in EngineRunKind]: EngineKind & { code: K } } = {
  'dbs-basic': dbsBasicKind,
  'dbs-standard': dbsStandardKind,
  'dbs-enhanced': dbsEnhancedKind,
  'dbs-update': dbsUpdateKind,
  'driver-data': driverDataKind,
  'licence-check': licenceCheckKind,
  'knowledge-test': knowledgeTestKind,
  'online-idv': onlineIdvKind,
  rtw: rtwKind,
};

export function checkKindOf(code: string): EngineKind | null {
  return isEngineRunKind(code) ? CHECK_KINDS[code] : null;
}

/** The providers the kinds call, each once (two different entries of one name: a mistake). */
export const CHECK_PROVIDER_DEFINITIONS: readonly CheckProviderDefinition[] = uniqueProviders(
  Object.values(CHECK_KINDS).map((k) => k.provider),
);

export function uniqueProviders(
  all: readonly CheckProviderDefinition[],
): readonly CheckProviderDefinition[] {
  const byName = new Map<string, CheckProviderDefinition>();
  for (const p of all) {
    const seen = byName.get(p.name);
    if (seen && seen !== p) throw new Error(`two check providers named ${p.name}`);
    byName.set(p.name, p);
  }
  return [...byName.values()];
}

/** The provider named `name` whose callbacks the engine takes, or null. */
export function callbackProviderOf(
  name: string,
): (CheckProviderDefinition & Required<Pick<CheckProviderDefinition, 'callbacks'>>) | null {
  const p = CHECK_PROVIDER_DEFINITIONS.find((d) => d.name === name);
  return p?.callbacks ? { ...p, callbacks: p.callbacks } : null;
}
