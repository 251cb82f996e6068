import { existsSync, readdirSync, readFileSync } from 'node:fs';
import {
  ACTIVITY_KINDS,
  CHECK_PROVIDERS,
  checkProviderOf,
  ENGINE_RUN_KINDS,
  isCountersignedKind,
} from '@kestrel/domain';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { randomSecrets } from '../../../test/helpers.js';
import { systemClock } from '../../platform/clock.js';
import { missingCallbackSecret, readChecksConfig, simulatorSecretName } from './config.js';
import { CHECK_DEMO_RESULTS } from './demo-seeds.js';
import { checkJobKinds, uniqueJobs } from './jobs.js';
import { initiateJobName, pollJobName } from './kind.js';
import { kindEngine } from './kind-engine.js';
import { createCheckEngine, providerOf } from './providers.js';
import {
  CHECK_KINDS,
  CHECK_PROVIDER_DEFINITIONS,
  callbackProviderOf,
  checkKindOf,
  uniqueProviders,
} from './registry.js';

/*
 * "Adding a kind touches the registry and the kind's own files, nothing else" (issue 17): the
 * registry agrees with the domain's activity-kind registry, and the engine's shared files name
 * no kind and no provider (they go through the registry's entries only).
 */

const here = new URL('./', import.meta.url);
/** The registries: the kinds the engine runs, and the families' demo results (the seed's). */
const REGISTRIES = ['registry.ts', 'demo-seeds.ts'];
/** The engine's shared files: everything in modules/checks except the registries, the kinds' own folders and tests. */
const sharedFiles = readdirSync(here, { withFileTypes: true })
  .filter((f) => f.isFile() && f.name.endsWith('.ts') && !f.name.endsWith('.test.ts'))
  .map((f) => f.name)
  .filter((name) => !REGISTRIES.includes(name));
const kindFolders = readdirSync(here, { withFileTypes: true })
  .filter((f) => f.isDirectory())
  .map((f) => f.name);

describe('the check registry', () => {
  it('has one entry per kind the domain says the engine runs, on the domain’s provider', () => {
    expect(Object.keys(CHECK_KINDS).sort()).toEqual([...ENGINE_RUN_KINDS].sort());
    for (const code of ENGINE_RUN_KINDS) {
      const kind = CHECK_KINDS[code];
      expect(kind.code).toBe(code);
      expect(kind.provider.name).toBe(checkProviderOf(code));
      // the kind's result data is the domain's schema for it, not a second one
      expect(kind.resultSchema).toBe(ACTIVITY_KINDS[code].result);
      // a countersigned kind (the domain's) waits for its countersignature (a kind may wait
      // for something else of its own: right to work's documents wait for a manual check)
      if (isCountersignedKind(code)) expect(kind.gate).toBeDefined();
      expect(checkKindOf(code)).toBe(kind);
    }
    expect(checkKindOf('adult-first')).toBeNull();
    expect(checkKindOf('nonsense')).toBeNull();
  });

  it('derives its providers from the kinds, each once, as the domain lists them', () => {
    expect(CHECK_PROVIDER_DEFINITIONS.map((p) => p.name).sort()).toEqual(
      [...CHECK_PROVIDERS].sort(),
    );
    // callbacks only for providers that call back
    expect(callbackProviderOf('dbs-basic')?.name).toBe('dbs-basic');
    expect(callbackProviderOf('ebulk')?.name).toBe('ebulk');
    expect(callbackProviderOf('dbs-update-service')).toBeNull();
    expect(callbackProviderOf('nonsense')).toBeNull();
    // one provider shared by kinds is one entry; two different entries of one name are refused
    const basic = CHECK_KINDS['dbs-basic'].provider;
    expect(uniqueProviders([basic, basic])).toEqual([basic]);
    expect(() => uniqueProviders([basic, { ...basic }])).toThrow(/two check providers/);
  });

  it('registers every job once', () => {
    const names = checkJobKinds.map((j) => j.name);
    expect(new Set(names).size).toBe(names.length);
    const [first] = checkJobKinds;
    if (!first) throw new Error('no jobs');
    expect(uniqueJobs([first, first])).toEqual([first]);
    expect(() => uniqueJobs([first, { ...first }])).toThrow(/two check jobs/);
    expect(names).toEqual(
      expect.arrayContaining(['checks-start', 'checks-initiate', 'checks-poll']),
    );
    // a provider that runs several calls at once has start and poll queues of its own, with its
    // workers; the others share the engine's
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      for (const name of [initiateJobName(p), pollJobName(p)]) {
        const job = checkJobKinds.find((j) => j.name === name);
        expect(job, name).toBeDefined();
        expect(job?.workers ?? 1).toBe(p.workers ?? 1);
        expect(name.endsWith(`-${p.name}`), name).toBe((p.workers ?? 1) > 1);
      }
    }
    // more than one at once only where the client keeps to the provider's rate
    expect(
      CHECK_PROVIDER_DEFINITIONS.filter((p) => (p.workers ?? 1) > 1)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['davis', 'dvla']);
    // the kinds' own jobs, made with the engine's parts, are registered
    for (const kind of Object.values(CHECK_KINDS)) {
      for (const job of kind.jobs?.(kindEngine) ?? []) expect(names).toContain(job.name);
    }
  });

  it('a kind is one folder and one registry line: its own routes come with it', async () => {
    // no module folder of a kind's own (the checks module registers the kinds' routes)
    const modules = readdirSync(new URL('../', here), { withFileTypes: true })
      .filter((f) => f.isDirectory())
      .map((f) => f.name);
    // (online-idv's module is the identity session's case data and the subject's and ops'
    // identity routes, which other modules share, not the kind's own form)
    const ownModules = modules.filter((m) => m !== 'online-idv');
    for (const code of ENGINE_RUN_KINDS) expect(ownModules, code).not.toContain(code);
    expect(modules).toContain('online-idv');
    // the kinds with an ops form's endpoint of their own, registered on the app they are given
    const withRoutes = Object.values(CHECK_KINDS).filter((k) => k.routes);
    expect(withRoutes.map((k) => k.code).sort()).toEqual(['knowledge-test', 'licence-check']);
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    for (const kind of withRoutes) await kind.routes?.(app, kindEngine);
    for (const url of [
      '/api/ops/case-activities/:id/davis-email/',
      '/api/ops/case-activities/:id/knowledge-test-result/',
    ]) {
      expect(app.hasRoute({ method: 'POST', url }), url).toBe(true);
    }
    // the checks module is what registers them
    const checksModule = readFileSync(new URL('module.ts', here), 'utf8');
    expect(checksModule).toMatch(/kind\.routes\?\.\(app, kindEngine\)/);
    await app.close();
  });

  it('the families’ demo results are a registry of their own, which the engine never loads', () => {
    const seeds = readFileSync(new URL('demo-seeds.ts', here), 'utf8');
    const withResults = kindFolders.filter((f) =>
      existsSync(new URL(`${f}/demo-results.ts`, here)),
    );
    for (const f of withResults) expect(seeds).toContain(`'./${f}/demo-results.js'`);
    expect(CHECK_DEMO_RESULTS).toHaveLength(withResults.length);
    for (const file of ['registry.ts', ...sharedFiles.filter((f) => f !== 'module.ts')]) {
      const source = readFileSync(new URL(file, here), 'utf8');
      expect(source, file).not.toMatch(/from '\.\/(demo-seeds|[a-z-]+\/demo-results)\.js'/);
    }
  });

  it('reads each provider’s settings from the variables its entry names', () => {
    const env: NodeJS.ProcessEnv = {};
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      env[p.env.url] = `https://${p.name}.example`;
      if (p.env.key) env[p.env.key] = `${p.name}-key`;
    }
    const config = readChecksConfig(env, randomSecrets());
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      expect(config.providers[p.name].real).toEqual({
        url: `https://${p.name}.example`,
        key: p.env.key ? `${p.name}-key` : '',
      });
    }
    // a real provider that calls back without its own secret: its callbacks are refused
    expect(missingCallbackSecret(env).sort()).toEqual(
      CHECK_PROVIDER_DEFINITIONS.flatMap((p) =>
        p.callbacks ? [p.callbacks.secretEnv] : [],
      ).sort(),
    );
    // without them: every provider simulated, callbacks signed with the installation's secret
    const installation = randomSecrets();
    const simulated = readChecksConfig({}, installation);
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      expect(simulated.providers[p.name].real).toBeNull();
      expect(simulated.providers[p.name].callbackSecret).toBe(
        p.callbacks ? installation.get(simulatorSecretName(p.name)) : '',
      );
    }
    // a real provider's own secret verifies its callbacks
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      if (p.callbacks) env[p.callbacks.secretEnv] = `${p.name}-secret`;
    }
    expect(missingCallbackSecret(env)).toEqual([]);
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      if (p.callbacks)
        expect(readChecksConfig(env, installation).providers[p.name].callbackSecret).toBe(
          `${p.name}-secret`,
        );
    }
    // a key required but not given: still the simulator
    const keyless = readChecksConfig({ DBS_BASIC_API_URL: 'https://basic.example' }, installation);
    expect(keyless.providers['dbs-basic'].real).toBeNull();
  });

  it('makes every provider, real where configured and simulated otherwise', () => {
    const deps = { clock: systemClock };
    const engine = createCheckEngine(deps, readChecksConfig({}, randomSecrets()));
    for (const p of CHECK_PROVIDER_DEFINITIONS) expect(providerOf(engine, p)).toBeDefined();
    const real = createCheckEngine(
      deps,
      readChecksConfig({ DBS_UPDATE_SERVICE_URL: 'https://update.example' }, randomSecrets()),
    );
    const update = CHECK_KINDS['dbs-update'].provider;
    expect(providerOf(real, update)).not.toBe(providerOf(engine, update));
    expect(() => providerOf({ ...engine, providers: new Map() }, update)).toThrow();
  });

  it('the engine’s shared files name no kind, no provider and no kind’s folder', () => {
    expect(sharedFiles).toEqual(expect.arrayContaining(['engine.ts', 'callbacks.ts', 'config.ts']));
    // every folder here is a kind's (or a family's), and the registry imports it
    const registry = readFileSync(new URL('registry.ts', here), 'utf8');
    for (const folder of kindFolders) expect(registry).toContain(`'./${folder}/`);
    const names = [...ENGINE_RUN_KINDS, ...CHECK_PROVIDERS];
    for (const file of sharedFiles) {
      const source = readFileSync(new URL(file, here), 'utf8');
      for (const name of names) {
        expect(source, `${file} names '${name}'`).not.toMatch(new RegExp(`['"\`/]${name}['"\`/]`));
      }
      // nor, in its code (comments may give examples), a family's words or types
      const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      expect(code, `${file} is about one family`).not.toMatch(
        /dbs|ebulk|disclosure|update.?service|countersign|barred|certificate/i,
      );
      for (const folder of kindFolders) {
        expect(source, `${file} imports ./${folder}/`).not.toContain(`'./${folder}/`);
      }
      // a provider is reached through its registry entry, never its client or simulator
      expect(source, `${file} imports a provider`).not.toMatch(
        /from '\.\.\/\.\.\/providers\/(?!errors\.js)/,
      );
    }
  });

  it('the README’s configuration table names every provider’s variables', () => {
    const readme = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
    for (const p of CHECK_PROVIDER_DEFINITIONS) {
      for (const v of [p.env.url, p.env.key, p.callbacks?.secretEnv]) {
        if (v) expect(readme).toContain(`\`${v}\``);
      }
    }
  });
});
