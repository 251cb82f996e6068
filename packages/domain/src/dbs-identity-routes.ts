import type { EligibleDocumentType } from './document-eligibility.js';
import { IDENTITY_DOCUMENT_TYPES } from './identity-documents.js';

/**
 * Reference data of the DBS identity checking guidelines (groups and routes), kept in the repo:
 * the public document picker shows it to applicants, and verification (staff or operations)
 * checks a case's collected documents against it, on the server and in the verify step.
 *
 * Standard and enhanced checks:
 * - Route 1: one Group 1 document and two more from Groups 1, 2a or 2b; one must show the
 *   current address.
 * - Route 2 (only when Route 1 is impossible): one Group 2a document and two more from 2a or 2b,
 *   plus an external identity validation (GPG45 Medium, pass or fail); one must show the
 *   current address.
 * - Route 3: a birth certificate issued after the time of birth, one more Group 2a document and
 *   three more from 2a or 2b; otherwise fingerprints at the police.
 * Basic checks: two documents, one from Group 1, one showing the current address.
 */

export type DbsGroup = '1' | '2a' | '2b';
export const IDENTITY_CHECK_LEVELS = ['basic', 'standard-enhanced'] as const;
export type IdentityCheckLevel = (typeof IDENTITY_CHECK_LEVELS)[number];

export const DBS_GROUPS: readonly { group: DbsGroup; title: string; description: string }[] = [
  {
    group: '1',
    title: 'Group 1: primary identity documents',
    description:
      'Passports, permits and photocard licences from the UK, and certificates issued at birth or adoption.',
  },
  {
    group: '2a',
    title: 'Group 2a: trusted government documents',
    description: 'Other licences and certificates issued by a government.',
  },
  {
    group: '2b',
    title: 'Group 2b: financial and social history documents',
    description: 'Statements and letters, most of which must be recent (3 or 12 months).',
  },
];

/** Identity documents that show the holder's address (besides statements asking it). */
const ADDRESS_DOCUMENTS = new Set([
  'photocard-driving-licence-uk',
  'paper-driving-licence',
  'firearms-licence',
]);
/** The one Route 3 needs: a birth certificate issued after the time of birth. */
export const LATER_BIRTH_CERTIFICATE = 'birth-certificate-later';

export interface PickerDocument {
  code: string;
  name: string;
  group: DbsGroup;
  /** It can show the current address. */
  showsAddress: boolean;
}

const isGroup = (g: string): g is DbsGroup => g === '1' || g === '2a' || g === '2b';

export const PICKER_DOCUMENTS: readonly PickerDocument[] = IDENTITY_DOCUMENT_TYPES.filter(
  (t): t is EligibleDocumentType & { group: DbsGroup } => isGroup(t.group),
).map((t) => ({
  code: t.code,
  name: t.name,
  group: t.group,
  showsAddress:
    ADDRESS_DOCUMENTS.has(t.code) || t.questions.some((q) => q.id === 'address-matches'),
}));

export interface RouteOutcome {
  route: 1 | 2 | 3;
  title: string;
  met: boolean;
  /** What is still missing, in plain words (empty when met). */
  missing: string[];
  /** A condition that applies even when the documents are enough. */
  note?: string;
}

const more = (n: number, from: string) =>
  n === 1 ? `1 more document from ${from}` : `${n} more documents from ${from}`;

function count(docs: readonly PickerDocument[], groups: readonly DbsGroup[]) {
  return docs.filter((d) => groups.includes(d.group)).length;
}

/**
 * Which routes the chosen documents satisfy for a check level, and what each still needs.
 * Basic has one route; standard and enhanced have three, tried in order.
 */
export function evaluateRoutes(
  codes: readonly string[],
  level: IdentityCheckLevel,
): RouteOutcome[] {
  const docs = PICKER_DOCUMENTS.filter((d) => codes.includes(d.code));
  const address = docs.some((d) => d.showsAddress);
  const addressMissing = address ? [] : ['a document showing the current address'];
  const g1 = count(docs, ['1']);
  if (level === 'basic') {
    const others = docs.length - Math.min(g1, 1);
    const missing = [
      ...(g1 === 0 ? ['a Group 1 document'] : []),
      ...(others < 1 ? [more(1, 'any group')] : []),
      ...addressMissing,
    ];
    return [{ route: 1, title: 'Basic check', met: missing.length === 0, missing }];
  }

  const r1Missing = [
    ...(g1 === 0 ? ['a Group 1 document'] : []),
    ...(() => {
      const others = docs.length - Math.min(g1, 1);
      return others < 2 ? [more(2 - others, 'Group 1, 2a or 2b')] : [];
    })(),
    ...addressMissing,
  ];

  const g2a = count(docs, ['2a']);
  const g2 = count(docs, ['2a', '2b']);
  const r2Missing = [
    ...(g2a === 0 ? ['a Group 2a document'] : []),
    ...(() => {
      const others = g2 - Math.min(g2a, 1);
      return others < 2 ? [more(2 - others, 'Group 2a or 2b')] : [];
    })(),
    ...addressMissing,
  ];

  const birth = docs.some((d) => d.code === LATER_BIRTH_CERTIFICATE);
  const other2a = docs.filter((d) => d.group === '2a' && d.code !== LATER_BIRTH_CERTIFICATE).length;
  const rest = g2 - (birth ? 1 : 0) - Math.min(other2a, 1);
  const r3Missing = [
    ...(birth ? [] : ['a birth certificate issued after the time of birth']),
    ...(other2a === 0 ? ['another Group 2a document'] : []),
    ...(rest < 3 ? [more(3 - rest, 'Group 2a or 2b')] : []),
    ...addressMissing,
  ];

  return [
    { route: 1, title: 'Route 1', met: r1Missing.length === 0, missing: r1Missing },
    {
      route: 2,
      title: 'Route 2',
      met: r2Missing.length === 0,
      missing: r2Missing,
      note: 'Only when Route 1 is not possible, and your identity must also pass an external identity validation.',
    },
    {
      route: 3,
      title: 'Route 3',
      met: r3Missing.length === 0,
      missing: r3Missing,
      note: 'When Routes 1 and 2 are not possible. Otherwise you will be asked to give your fingerprints at a police station.',
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Verification: the evidence a case holds against the route it must satisfy (issue 17)

/** How the applicant's identity is checked (the DBS details' idv_option). */
export type IdentityCheckBasis = 'online' | 'documents';

/** What a case holds for its identity check. */
export interface IdentityEvidence {
  /** basic when the case's criminal-record checks are basic only. */
  level: IdentityCheckLevel;
  /** The DBS details' idv_option ('' until chosen). */
  idvOption: string;
  /** Type codes of the case's documents that are not rejected (a type counts once). */
  documentCodes: readonly string[];
  /** The case's online identity check passed (the digital identity, or Route 2's validation). */
  onlineIdvPassed: boolean;
}

export interface IdentityCheckOutcome {
  basis: IdentityCheckBasis | null;
  met: boolean;
  /** The route the documents satisfy (1 to 3; basic checks have 1); null online or unmet. */
  route: 1 | 2 | 3 | null;
  /** Why the identity cannot be verified yet, in plain words ('' when met). */
  problem: string;
}

/** Our own wording (the spec gives none). */
export const IDENTITY_CHECK_MESSAGES = {
  noOption: 'Choose how the identity will be verified first.',
  onlineNotPassed:
    'The online identity check has not passed: verify the identity against documents instead (in person or on a video call).',
  route2Validation:
    'The documents meet Route 2 only, which also needs a passed external identity validation (the online identity check).',
  basicNotMet: (missing: readonly string[]) =>
    `The documents collected do not meet the basic check's identity route. Still needed: ${missing.join('; ')}.`,
  routesNotMet: (missing: readonly string[]) =>
    `The documents collected do not meet an identity checking route. Route 1 still needs: ${missing.join('; ')}.`,
} as const;

/**
 * Whether a case's evidence lets its identity be verified, and by which route: online, a passed
 * online identity check; with documents, the first route they satisfy (Route 2 only with the
 * online identity check passed as its external validation; Route 3 otherwise, before
 * fingerprints).
 */
export function identityCheckOutcome(e: IdentityEvidence): IdentityCheckOutcome {
  if (e.idvOption === '') {
    return { basis: null, met: false, route: null, problem: IDENTITY_CHECK_MESSAGES.noOption };
  }
  if (e.idvOption === 'online') {
    return e.onlineIdvPassed
      ? { basis: 'online', met: true, route: null, problem: '' }
      : {
          basis: 'online',
          met: false,
          route: null,
          problem: IDENTITY_CHECK_MESSAGES.onlineNotPassed,
        };
  }
  const outcomes = evaluateRoutes(e.documentCodes, e.level);
  const found = outcomes.find((o) => o.met && (o.route !== 2 || e.onlineIdvPassed));
  if (found) return { basis: 'documents', met: true, route: found.route, problem: '' };
  const first = outcomes[0];
  const onlyRoute2 = outcomes.some((o) => o.met && o.route === 2);
  const problem = onlyRoute2
    ? IDENTITY_CHECK_MESSAGES.route2Validation
    : e.level === 'basic'
      ? IDENTITY_CHECK_MESSAGES.basicNotMet(first?.missing ?? [])
      : IDENTITY_CHECK_MESSAGES.routesNotMet(first?.missing ?? []);
  return { basis: 'documents', met: false, route: null, problem };
}

/** The identity group of a document type ('' when it is not on the identity list). */
export function identityGroupOf(code: string): DbsGroup | '' {
  return PICKER_DOCUMENTS.find((d) => d.code === code)?.group ?? '';
}
