import {
  ACTIVITY_KINDS,
  consentKindOf,
  isActivityKindCode,
  type PortalActivitySection,
} from './activity-kinds.js';
import type { ConsentKind, SubjectConsentOut } from './contracts/portal.js';
import { PORTAL_SECTIONS, type PortalSection } from './portal-sections.js';

/**
 * Where the portal asks each consent (the activity-kind registry says which consent a kind asks
 * for): in a section of its own (the DBS update service's status checks, the DVLA mandate), or
 * in each criminal-record level's own section (null).
 */
export const CONSENT_SECTION: Record<ConsentKind, PortalActivitySection | null> = {
  'dbs-application': null,
  'dbs-update': 'dbs-update',
  'driver-data': 'driver-data',
};

/** Sections that may come from a subscription cycle's requirements or from required consents. */
const CONSENT_SECTIONS: readonly PortalSection[] = Object.values(CONSENT_SECTION).filter(
  (s) => s !== null,
);

/**
 * The consent sections the case's activities ask for, in portal order (point 4:
 * `required_consents`): a driving licence check asks for the DVLA mandate of driver-data.
 */
export function requiredConsents(activityCodes: readonly string[]): PortalSection[] {
  const wanted = new Set<PortalSection>();
  for (const code of activityCodes) {
    const kind = consentKindOf(code);
    const section = kind === null ? null : CONSENT_SECTION[kind];
    if (section !== null) wanted.add(section);
  }
  return PORTAL_SECTIONS.filter((s) => wanted.has(s));
}

/**
 * The case activity a consent is given for: the one whose own section asks it (driver-data for
 * the DVLA mandate), else the first that asks for it (a case with a licence check only).
 */
export function activityAskingConsent<A extends { activity_type: { code: string } }>(
  activities: readonly A[],
  kind: ConsentKind,
): A | undefined {
  const section = CONSENT_SECTION[kind];
  const asking = activities.filter((a) => consentKindOf(a.activity_type.code) === kind);
  const own = asking.find(
    (a) =>
      isActivityKindCode(a.activity_type.code) &&
      ACTIVITY_KINDS[a.activity_type.code].portalSection === section,
  );
  return own ?? asking[0];
}

/** Review & Submit refused (400 on non_field_errors): a check to submit lacks its consent. */
export const SUBMIT_WITHOUT_CONSENT =
  'Give your consent in the declaration of each check that asks for it before you submit.';

/** A consent on record for the case: what `missingConsents` reads of it. */
export type ConsentOnRecord = Pick<SubjectConsentOut, 'case_activity' | 'kind' | 'status'>;

/**
 * The consents still to give before `moving` (by default every activity) can be submitted, each
 * with the activity the portal gives it for. Only a live consent counts (active or expiring, not
 * withdrawn or expired). A criminal-record level asks its own declaration (a consent for that
 * activity); a consent asked in a section of its own (the update service's status checks, the
 * DVLA mandate) is one for the case, given for `activityAskingConsent`.
 */
export function missingConsents<A extends { id: number; activity_type: { code: string } }>(
  activities: readonly A[],
  consents: readonly ConsentOnRecord[],
  moving: readonly A[] = activities,
): { activity: A; kind: ConsentKind }[] {
  const live = consents.filter((c) => c.status === 'active' || c.status === 'expiring');
  const missing: { activity: A; kind: ConsentKind }[] = [];
  for (const a of moving) {
    const kind = consentKindOf(a.activity_type.code);
    if (kind === null) continue;
    const perActivity = CONSENT_SECTION[kind] === null;
    const given = live.some((c) => c.kind === kind && (!perActivity || c.case_activity === a.id));
    if (given) continue;
    const activity = perActivity ? a : (activityAskingConsent(activities, kind) ?? a);
    if (!missing.some((m) => m.kind === kind && m.activity === activity)) {
      missing.push({ activity, kind });
    }
  }
  return missing;
}

export interface PortalSectionsInput {
  /** Activity type codes of the case's activities. */
  activityCodes: readonly string[];
  /** Codes of the portal's required consents. */
  requiredConsents?: readonly string[];
  /** Requirement codes of the subscription cycle, when the case belongs to one. */
  cycleRequirements?: readonly string[];
}

/** The sections a subject walks through, in portal order. */
export function portalSections(input: PortalSectionsInput): PortalSection[] {
  const present = new Set<string>();
  for (const code of input.activityCodes) {
    if (isActivityKindCode(code) && ACTIVITY_KINDS[code].portalSection) present.add(code);
  }
  for (const code of [...(input.requiredConsents ?? []), ...(input.cycleRequirements ?? [])]) {
    if (CONSENT_SECTIONS.includes(code as PortalSection)) present.add(code);
  }
  return PORTAL_SECTIONS.filter(
    (s) => s === 'welcome' || s === 'review' || s === 'done' || present.has(s),
  );
}

export interface PortalProgress {
  sections: PortalSection[];
  /** How many sections are done. */
  completed: number;
  total: number;
  percent: number;
  /** The section to open next (Done once everything is submitted). */
  next: PortalSection;
}

/**
 * Progress from the last completed section. A value with a slash ('address-history/2') means
 * that section was started but not finished, so it counts one step earlier. An unknown or empty
 * value means nothing is done yet.
 */
export function portalProgress(
  input: PortalSectionsInput & { lastCompletedSection?: string | null },
): PortalProgress {
  const sections = portalSections(input);
  const last = input.lastCompletedSection ?? '';
  const [name = ''] = last.split('/');
  const index = sections.indexOf(name as PortalSection);
  const completed = index < 0 ? 0 : index + (last.includes('/') ? 0 : 1);
  const total = sections.length;
  const next = sections[Math.min(completed, total - 1)] ?? 'welcome';
  return { sections, completed, total, percent: Math.round((completed / total) * 100), next };
}

/** The criminal-record application levels, in portal order. */
export const DBS_APPLICATION_LEVELS = ['dbs-enhanced', 'dbs-standard', 'dbs-basic'] as const;
export type DbsApplicationLevel = (typeof DBS_APPLICATION_LEVELS)[number];

/**
 * The section that asks a case's shared criminal-record questions (name for the DBS, place of
 * birth, how the identity will be checked and when): the first level the case has, in portal
 * order; the other levels only ask for their own consent. Null without any.
 */
export function dbsApplicationSection(
  sections: readonly PortalSection[],
): DbsApplicationLevel | null {
  return DBS_APPLICATION_LEVELS.find((l) => sections.includes(l)) ?? null;
}
