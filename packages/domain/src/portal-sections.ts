import { PORTAL_ACTIVITY_SECTIONS } from './portal-activity-sections.js';

/** The full case portal order (spec point 2): Welcome, the activity sections, Review, Done. */
export const PORTAL_SECTIONS = ['welcome', ...PORTAL_ACTIVITY_SECTIONS, 'review', 'done'] as const;
export type PortalSection = (typeof PORTAL_SECTIONS)[number];

export const PORTAL_SECTION_LABELS: Record<PortalSection, string> = {
  welcome: 'Welcome',
  'online-idv': 'Online identity check',
  'basic-details': 'Basic details',
  'address-history': 'Address history',
  'document-collection': 'Documents',
  'dbs-enhanced': 'Enhanced DBS check',
  'dbs-standard': 'Standard DBS check',
  'dbs-basic': 'Basic DBS check',
  'dbs-update': 'DBS update service',
  'driver-data': 'Driver data',
  rtw: 'Right to work',
  review: 'Review & Submit',
  done: 'Done',
};

/** The portal's own frame: no step the person is asked for. */
const FRAME: readonly PortalSection[] = ['welcome', 'done'];

/** The steps the person is asked for (what Welcome lists): every section but Welcome and Done. */
export function portalSteps(sections: readonly PortalSection[]): PortalSection[] {
  return sections.filter((s) => !FRAME.includes(s));
}

/**
 * How many of the case's steps are done, from how many of its sections are (`completed` as in
 * `portalProgress`): the count the person reads ('3 of 11 steps done') is of the steps listed.
 */
export function portalStepCounts(
  sections: readonly PortalSection[],
  completed: number,
): { done: number; total: number; percent: number } {
  const steps = portalSteps(sections);
  const done = sections.slice(0, completed).filter((s) => !FRAME.includes(s)).length;
  const total = steps.length;
  return { done, total, percent: total === 0 ? 100 : Math.round((done / total) * 100) };
}
