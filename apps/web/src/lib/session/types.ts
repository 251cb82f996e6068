import type {
  Entitlement,
  MaintenanceWindow,
  Permission,
  SessionStatus,
  UserType,
} from '@kestrel/domain';

export type { MaintenanceWindow, SessionStatus, UserType };

/** GET /api/accounts/check-session/ */
export interface CheckSessionResponse {
  authenticated: boolean;
  csrf_token: string;
  user_type: UserType | null;
  session_customer: number | null;
  active_flags: number;
  maintenance_window: MaintenanceWindow | null;
}

export interface ProductProfile {
  id: number;
  user_type: 'ProductUser';
  first_name: string;
  last_name: string;
  username: string;
  job_title: string;
  dark_mode: boolean;
  totp_enabled: boolean;
  notifications: boolean;
  avatar: string | null;
  roles: string[];
  is_ops: boolean;
  customer: { id: number; name: string; demo_mode: boolean } | null;
  session_permissions: Permission[];
  entitlements: Entitlement[];
  terms_agreed_at: string | null;
}

export interface SubjectProfile {
  id: number;
  user_type: 'SubjectUser';
  first_name: string;
  last_name: string;
  middlename: string;
  email: string;
  dark_mode: boolean;
  dob: string | null;
  can_change_dob: boolean;
  phone_number: string;
  terms_agreed_at: string | null;
  dbs_email_notifications: boolean;
  dvla_reconsents: unknown[];
}

export type Profile = ProductProfile | SubjectProfile;

export interface ContentType {
  id: number;
  app_label: string;
  model: string;
}
export interface ActivityType {
  id: number;
  code: string;
  name: string;
  kind: string;
}
export interface Verb {
  id: number;
  code: string;
  name: string;
}
export interface CountryEntry {
  name: string;
  nationality: string;
  deprecated: boolean;
  ebulk_missing: boolean;
}
export type CountryMap = Record<string, CountryEntry>;

/** Everything the app loads once per session before showing a screen. */
export interface BootstrapData {
  profile: Profile;
  contentTypes: ContentType[];
  activityTypes: ActivityType[];
  verbs: Verb[];
  entitlements: string[];
  activeFlags: number;
  countries: CountryMap;
}

export interface SessionState {
  status: SessionStatus;
  userType: UserType | null;
  sessionCustomer: number | null;
  activeFlags: number;
  maintenanceWindow: MaintenanceWindow | null;
  /** True after a 503: the maintenance page replaces the app. */
  down: boolean;
  bootstrap: BootstrapData | null;
}
