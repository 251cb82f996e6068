/** Session status on the client (spec point 4). */
export const SESSION_STATUSES = [
  'unknown',
  'logged-in',
  'logged-out',
  'error',
  'persisted-locally',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const USER_TYPES = ['ProductUser', 'SubjectUser'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Timing and size constants of spec point 9. */
export const LIMITS = {
  sessionPollSeconds: 5,
  activityTypesPageSize: 100,
  contentTypesPageSize: 100,
  scriptLoadTimeoutSeconds: 120,
  /** The other constant set of point 9 (units not given by the spec). */
  sessionPollInterval: 60,
  registrationPortalIntentExpiry: 48,
  caseReminderEmailThreshold: 24,
} as const;

export interface MaintenanceWindow {
  start: string;
  end: string;
  warning_start?: string | null;
}

export type MaintenanceStatus = 'up' | 'warning' | 'down';

/**
 * The app is down between start (inclusive) and end (exclusive); a warning shows from
 * warning_start until start.
 */
export function maintenanceStatus(
  window: MaintenanceWindow | null | undefined,
  now: Date,
): MaintenanceStatus {
  if (!window) return 'up';
  const t = now.getTime();
  const start = Date.parse(window.start);
  if (t >= start && t < Date.parse(window.end)) return 'down';
  if (window.warning_start && t >= Date.parse(window.warning_start) && t < start) return 'warning';
  return 'up';
}

export const MAINTENANCE_TEXT =
  'The site is currently down for maintenance. We will be back soon. Thank you for your patience.';
