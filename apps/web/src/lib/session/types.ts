import type {
  CheckSessionOut,
  MaintenanceWindow,
  ProductProfileOut,
  ProfileOut,
  SessionStatus,
  SubjectProfileOut,
  UserType,
} from '@kestrel/domain';

export type { MaintenanceWindow, SessionStatus, UserType };

/** GET /api/accounts/check-session/ and GET/PUT /api/user/: the contract's shapes. */
export type CheckSessionResponse = CheckSessionOut;
export type ProductProfile = ProductProfileOut;
export type SubjectProfile = SubjectProfileOut;
export type Profile = ProfileOut;

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
