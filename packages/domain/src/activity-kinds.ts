import type { z } from 'zod';
import {
  adultFirstResultDataSchema,
  dbsBasicResultDataSchema,
  dbsEnhancedResultDataSchema,
  dbsStandardResultDataSchema,
  dbsUpdateResultDataSchema,
} from './checks/results.js';

/** Portal sections in the case portal's order (spec point 2), without Welcome/Review/Done. */
export const PORTAL_ACTIVITY_SECTIONS = [
  'online-idv',
  'basic-details',
  'address-history',
  'document-collection',
  'dbs-enhanced',
  'dbs-standard',
  'dbs-basic',
  'dbs-update',
  'driver-data',
  'rtw',
] as const;
export type PortalActivitySection = (typeof PORTAL_ACTIVITY_SECTIONS)[number];

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

export interface ActivityKind {
  code: string;
  name: string;
  resultPanel: ResultPanel;
  portalSection: PortalActivitySection | null;
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
 * with what every part of the product shares about it. The lists the rest of the code uses (the
 * kinds the engine runs, their providers, the typed result data: checks/kinds.ts) are derived
 * from it, so adding a kind adds an entry here and the kind's own files, nothing else.
 */
export const ACTIVITY_KINDS = {
  'address-history': {
    code: 'address-history',
    name: 'Address history',
    resultPanel: 'address-history',
    portalSection: 'address-history',
  },
  'basic-details': {
    code: 'basic-details',
    name: 'Basic details',
    resultPanel: 'basic-details',
    portalSection: 'basic-details',
  },
  'document-collection': {
    code: 'document-collection',
    name: 'Document collection',
    resultPanel: 'document-collection',
    portalSection: 'document-collection',
  },
  'dbs-basic': {
    code: 'dbs-basic',
    name: 'Basic DBS check',
    resultPanel: 'dbs-result',
    portalSection: 'dbs-basic',
    result: dbsBasicResultDataSchema,
    engine: { provider: 'dbs-basic', countersigned: false },
  },
  'dbs-standard': {
    code: 'dbs-standard',
    name: 'Standard DBS check',
    resultPanel: 'dbs-result',
    portalSection: 'dbs-standard',
    result: dbsStandardResultDataSchema,
    engine: { provider: 'ebulk', countersigned: true },
  },
  'dbs-enhanced': {
    code: 'dbs-enhanced',
    name: 'Enhanced DBS check',
    resultPanel: 'dbs-result',
    portalSection: 'dbs-enhanced',
    result: dbsEnhancedResultDataSchema,
    engine: { provider: 'ebulk', countersigned: true },
  },
  'dbs-update': {
    code: 'dbs-update',
    name: 'DBS update service',
    resultPanel: 'update-service',
    portalSection: 'dbs-update',
    result: dbsUpdateResultDataSchema,
    engine: { provider: 'dbs-update-service', countersigned: false },
  },
  'knowledge-test': {
    code: 'knowledge-test',
    name: 'Knowledge test',
    resultPanel: 'knowledge-test',
    portalSection: null,
  },
  'trust-to-ride': {
    code: 'trust-to-ride',
    name: 'Trust to ride',
    resultPanel: 'trust-to-ride',
    portalSection: null,
  },
  'licence-check': {
    code: 'licence-check',
    name: 'Driving licence check',
    resultPanel: 'licence-check',
    portalSection: null,
  },
  'online-idv': {
    code: 'online-idv',
    name: 'Online identity verification',
    resultPanel: 'online-idv',
    portalSection: 'online-idv',
  },
  'driver-data': {
    code: 'driver-data',
    name: 'Driver data',
    resultPanel: 'driver-data',
    portalSection: 'driver-data',
  },
  'adult-first': {
    code: 'adult-first',
    name: 'Adult first check',
    resultPanel: 'adult-first',
    portalSection: null,
    result: adultFirstResultDataSchema,
  },
  rtw: { code: 'rtw', name: 'Right to work', resultPanel: 'rtw', portalSection: 'rtw' },
} as const satisfies Record<string, ActivityKind>;

export type ActivityKindCode = keyof typeof ACTIVITY_KINDS;
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
