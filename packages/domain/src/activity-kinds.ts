import type { z } from 'zod';
import { driverDataResultDataSchema } from './checks/driver-data.js';
import { onlineIdvResultDataSchema, rtwResultDataSchema } from './checks/identity.js';
import { knowledgeTestResultDataSchema } from './checks/knowledge-test.js';
import { licenceCheckResultDataSchema } from './checks/licence-check.js';
import {
  adultFirstResultDataSchema,
  dbsBasicResultDataSchema,
  dbsEnhancedResultDataSchema,
  dbsStandardResultDataSchema,
  dbsUpdateResultDataSchema,
} from './checks/results.js';
import { trustToRideResultDataSchema } from './checks/trust-to-ride.js';
import type { ConsentKind } from './contracts/portal.js';
import {
  PORTAL_ACTIVITY_SECTIONS,
  type PortalActivitySection,
} from './portal-activity-sections.js';
import type { CaseActivityState } from './states.js';

export { PORTAL_ACTIVITY_SECTIONS, type PortalActivitySection };

/** Which result panel shows an activity's result on the case detail pages. */
export const RESULT_PANELS = [
  'address-history',
  'basic-details',
  'document-collection',
  'dbs-result',
  'update-service',
  'knowledge-test',
  'trust-to-ride',
  'licence-check',
  'online-idv',
  'driver-data',
  'adult-first',
  'rtw',
] as const;
export type ResultPanel = (typeof RESULT_PANELS)[number];

/** Who reads a result panel: the customer's staff, the subject (restricted) or operations. */
export const RESULT_AUDIENCES = ['customer', 'subject', 'ops'] as const;
export type ResultAudience = (typeof RESULT_AUDIENCES)[number];
const EVERYONE = RESULT_AUDIENCES;

export interface ActivityKind {
  code: string;
  name: string;
  resultPanel: ResultPanel;
  /**
   * Who sees the kind's result panel on a case page (spec point 2: the subject's view is a
   * restricted version of the customer's, operations see everything plus their forms). The web's
   * panel registry (apps/web/src/features/results/registry.tsx) has a panel for each audience
   * named here, and a subject view exactly when 'subject' is named.
   */
  audiences: readonly ResultAudience[];
  /** Whether operations have a form of this kind's under its panel (spec point 2, Operations forms). */
  opsForm: boolean;
  portalSection: PortalActivitySection | null;
  /** The consent the portal asks the subject for before the check runs (none: null). */
  consent: ConsentKind | null;
  /** Whether the provider or the price list can demand a top-up payment before it goes on. */
  topUp: boolean;
  /**
   * How a kind that nothing else runs ends once the subject submits its portal section (point 4):
   * 'complete' when nothing needs checking; 'ops-review' when operations (or customer staff who
   * may change checks) review what was sent, listed in the ops outstanding activities with the
   * panel's form. Absent: in progress, for the engine or the kind's own work to move on.
   */
  onSubmit?: 'complete' | 'ops-review';
  /** The kind's typed `result_data` (its own schema, validated on the way in). */
  result?: z.ZodType;
  /**
   * Run by the check engine (the server's registry has its behaviour): the provider it calls,
   * and whether its application is verified and countersigned before it goes to the provider.
   */
  engine?: { provider: string; countersigned: boolean };
}

/**
 * The activity-kind registry (spec point 1), keyed by activity type code: one entry per kind,
 * with everything kind-specific the product shares about it: its name, its result panel and who
 * sees it, whether operations have a form for it, its portal section, the consent the portal
 * asks for, whether it can demand a top-up, its typed result data and, when the engine runs it,
 * its provider. The lists the rest of the code uses (the kinds the engine runs, their providers,
 * the typed result data: checks/kinds.ts; the top-up kinds: checks/top-up.ts; the consents the
 * portal asks for: portal.ts) are derived from it. Adding a kind adds an entry here, one line in
 * each registry of the server and the web, and the kind's own folders (decision 018).
 */
export const ACTIVITY_KINDS = {
  'address-history': {
    code: 'address-history',
    name: 'Address history',
    resultPanel: 'address-history',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'address-history',
    consent: null,
    topUp: false,
    onSubmit: 'complete',
  },
  'basic-details': {
    code: 'basic-details',
    name: 'Basic details',
    resultPanel: 'basic-details',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'basic-details',
    consent: null,
    topUp: false,
    onSubmit: 'complete',
  },
  'document-collection': {
    code: 'document-collection',
    name: 'Document collection',
    resultPanel: 'document-collection',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'document-collection',
    consent: null,
    topUp: false,
    onSubmit: 'ops-review',
  },
  'dbs-basic': {
    code: 'dbs-basic',
    name: 'Basic DBS check',
    resultPanel: 'dbs-result',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'dbs-basic',
    consent: 'dbs-application',
    topUp: true,
    result: dbsBasicResultDataSchema,
    engine: { provider: 'dbs-basic', countersigned: false },
  },
  'dbs-standard': {
    code: 'dbs-standard',
    name: 'Standard DBS check',
    resultPanel: 'dbs-result',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'dbs-standard',
    consent: 'dbs-application',
    topUp: true,
    result: dbsStandardResultDataSchema,
    engine: { provider: 'ebulk', countersigned: true },
  },
  'dbs-enhanced': {
    code: 'dbs-enhanced',
    name: 'Enhanced DBS check',
    resultPanel: 'dbs-result',
    audiences: EVERYONE,
    // the DBS enhanced provider configuration
    opsForm: true,
    portalSection: 'dbs-enhanced',
    consent: 'dbs-application',
    topUp: true,
    result: dbsEnhancedResultDataSchema,
    engine: { provider: 'ebulk', countersigned: true },
  },
  'dbs-update': {
    code: 'dbs-update',
    name: 'DBS update service',
    resultPanel: 'update-service',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'dbs-update',
    consent: 'dbs-update',
    topUp: false,
    result: dbsUpdateResultDataSchema,
    engine: { provider: 'dbs-update-service', countersigned: false },
  },
  'knowledge-test': {
    code: 'knowledge-test',
    name: 'Knowledge test',
    resultPanel: 'knowledge-test',
    audiences: EVERYONE,
    // the pass/fail radio for a test taken on paper
    opsForm: true,
    portalSection: null,
    consent: null,
    topUp: false,
    result: knowledgeTestResultDataSchema,
    engine: { provider: 'test-platform', countersigned: false },
  },
  'trust-to-ride': {
    code: 'trust-to-ride',
    name: 'Trust to ride',
    resultPanel: 'trust-to-ride',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: null,
    consent: null,
    topUp: false,
    result: trustToRideResultDataSchema,
  },
  'licence-check': {
    code: 'licence-check',
    name: 'Driving licence check',
    resultPanel: 'licence-check',
    audiences: EVERYONE,
    // the Davis email confirmation
    opsForm: true,
    portalSection: null,
    // it reads the driver record: the DVLA mandate, asked in the driver-data section
    consent: 'driver-data',
    topUp: false,
    result: licenceCheckResultDataSchema,
    engine: { provider: 'davis', countersigned: false },
  },
  'online-idv': {
    code: 'online-idv',
    name: 'Online identity verification',
    resultPanel: 'online-idv',
    audiences: EVERYONE,
    // the manual approval (with a reason)
    opsForm: true,
    portalSection: 'online-idv',
    consent: null,
    topUp: false,
    result: onlineIdvResultDataSchema,
    engine: { provider: 'idv', countersigned: false },
  },
  'driver-data': {
    code: 'driver-data',
    name: 'Driver data',
    resultPanel: 'driver-data',
    audiences: EVERYONE,
    opsForm: false,
    portalSection: 'driver-data',
    consent: 'driver-data',
    topUp: false,
    result: driverDataResultDataSchema,
    engine: { provider: 'dvla', countersigned: false },
  },
  'adult-first': {
    code: 'adult-first',
    name: 'Adult first check',
    resultPanel: 'adult-first',
    audiences: EVERYONE,
    // the staged form
    opsForm: true,
    portalSection: null,
    consent: null,
    topUp: false,
    result: adultFirstResultDataSchema,
  },
  rtw: {
    code: 'rtw',
    name: 'Right to work',
    resultPanel: 'rtw',
    audiences: EVERYONE,
    // the manual document check
    opsForm: true,
    portalSection: 'rtw',
    consent: null,
    topUp: false,
    result: rtwResultDataSchema,
    engine: { provider: 'home-office-rtw', countersigned: false },
  },
} as const satisfies Record<string, ActivityKind>;

export type ActivityKindCode = keyof typeof ACTIVITY_KINDS;

/** The state the subject's Review & Submit moves an activity of this kind to (its `onSubmit`). */
export function submittedActivityState(code: string): CaseActivityState {
  const kind: ActivityKind | undefined = isActivityKindCode(code)
    ? ACTIVITY_KINDS[code]
    : undefined;
  if (kind?.onSubmit === 'complete') return 'ca-complete';
  if (kind?.onSubmit === 'ops-review') return 'ca-awaiting-ops';
  return 'ca-in-progress';
}
export const ACTIVITY_KIND_CODES = Object.keys(ACTIVITY_KINDS) as ActivityKindCode[];

export function isActivityKindCode(code: string): code is ActivityKindCode {
  return Object.hasOwn(ACTIVITY_KINDS, code);
}

/** The criminal-record check codes (basic, standard, enhanced): the kinds shown as a DBS result. */
export type DbsCheckCode = {
  [K in ActivityKindCode]: (typeof ACTIVITY_KINDS)[K]['resultPanel'] extends 'dbs-result'
    ? K
    : never;
}[ActivityKindCode];
export const DBS_CHECK_CODES = ACTIVITY_KIND_CODES.filter(
  (c) => ACTIVITY_KINDS[c].resultPanel === 'dbs-result',
) as readonly DbsCheckCode[];

/** The kinds whose provider or price list can demand a top-up (`topUp` in the registry). */
export type TopUpKind = {
  [K in ActivityKindCode]: (typeof ACTIVITY_KINDS)[K]['topUp'] extends true ? K : never;
}[ActivityKindCode];
export const TOP_UP_KINDS = ACTIVITY_KIND_CODES.filter(
  (c) => ACTIVITY_KINDS[c].topUp,
) as readonly TopUpKind[];

/** The consent the portal asks for before a check of this code runs, or null. */
export function consentKindOf(code: string): ConsentKind | null {
  return isActivityKindCode(code) ? ACTIVITY_KINDS[code].consent : null;
}

/** Whether the domain gives this kind a result panel for the audience. */
export function hasResultAudience(code: string, audience: ResultAudience): boolean {
  return (
    isActivityKindCode(code) &&
    (ACTIVITY_KINDS[code].audiences as readonly ResultAudience[]).includes(audience)
  );
}

export const GUIDANCE_LINKS = {
  basic: {
    label: 'Basic check ID checking guidelines',
    url: 'https://www.gov.uk/government/publications/basic-checks-id-checking-guidelines',
  },
  identity: {
    label: 'ID checking guidelines',
    url: 'https://www.gov.uk/government/publications/dbs-identity-checking-guidelines',
  },
} as const;

/** Basic check guidance for dbs-basic, identity checking guidelines otherwise (spec point 9). */
export function guidanceLink(code: string): { label: string; url: string } {
  return code === 'dbs-basic' ? GUIDANCE_LINKS.basic : GUIDANCE_LINKS.identity;
}
