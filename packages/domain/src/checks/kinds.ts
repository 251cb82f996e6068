import type { z } from 'zod';
import { ACTIVITY_KINDS, type ActivityKindCode } from '../activity-kinds.js';

/*
 * The views of the activity-kind registry (ACTIVITY_KINDS) the check engine and the result
 * panels use, derived from it: a kind added there with its `engine` or `result` is in them.
 */

type Kinds = typeof ACTIVITY_KINDS;
const CODES = Object.keys(ACTIVITY_KINDS) as ActivityKindCode[];
const entry = (code: ActivityKindCode) => ACTIVITY_KINDS[code] as ActivityKindEntry;
type ActivityKindEntry = {
  result?: z.ZodType;
  engine?: { provider: string; countersigned: boolean };
};

/** The kinds of check the engine runs (the server's registry has one entry for each). */
export type EngineRunKind = {
  [K in ActivityKindCode]: Kinds[K] extends { engine: object } ? K : never;
}[ActivityKindCode];
export const ENGINE_RUN_KINDS = CODES.filter(
  (c) => entry(c).engine !== undefined,
) as readonly EngineRunKind[];
export const isEngineRunKind = (code: string): code is EngineRunKind =>
  (ENGINE_RUN_KINDS as readonly string[]).includes(code);

/** The providers the engine's kinds call, each once. */
export type CheckProvider = {
  [K in ActivityKindCode]: Kinds[K] extends { engine: { provider: infer P } } ? P : never;
}[ActivityKindCode];
export const CHECK_PROVIDERS = [
  ...new Set(ENGINE_RUN_KINDS.map((c) => entry(c).engine?.provider)),
] as unknown as readonly [CheckProvider, ...CheckProvider[]];

/** The provider the engine calls for `code`. */
export function checkProviderOf(code: EngineRunKind): CheckProvider {
  return ACTIVITY_KINDS[code].engine.provider;
}

/**
 * The applications a registered body verifies (the applicant's identity) and countersigns before
 * they go to the DBS: standard and enhanced (a basic disclosure needs neither).
 */
export const COUNTERSIGNED_KINDS = ENGINE_RUN_KINDS.filter(
  (c) => entry(c).engine?.countersigned === true,
);
export const isCountersignedKind = (code: string): boolean =>
  (COUNTERSIGNED_KINDS as readonly string[]).includes(code);

/** The activity type codes whose result data is typed (their entry's `result`). */
export type ResultDataKind = {
  [K in ActivityKindCode]: Kinds[K] extends { result: z.ZodType } ? K : never;
}[ActivityKindCode];
export const RESULT_DATA_KINDS = CODES.filter(
  (c) => entry(c).result !== undefined,
) as readonly ResultDataKind[];

export type ResultDataByKind = {
  [K in ResultDataKind]: Kinds[K] extends { result: infer S extends z.ZodType }
    ? z.infer<S>
    : never;
};

/** The result_data schema per activity type code. */
export const RESULT_DATA_SCHEMAS = Object.fromEntries(
  RESULT_DATA_KINDS.map((c) => [c, ACTIVITY_KINDS[c].result]),
) as unknown as { [K in ResultDataKind]: z.ZodType<ResultDataByKind[K]> };

export function isResultDataKind(code: string): code is ResultDataKind {
  return Object.hasOwn(RESULT_DATA_SCHEMAS, code);
}

/** Parses stored result data leniently for display: anything invalid reads as empty. */
export function readResultData<K extends ResultDataKind>(
  code: K,
  data: unknown,
): ResultDataByKind[K] {
  const schema = RESULT_DATA_SCHEMAS[code];
  const parsed = schema.safeParse(data ?? {});
  return parsed.success ? parsed.data : schema.parse({});
}
