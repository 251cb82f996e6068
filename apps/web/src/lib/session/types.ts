import type {
  ActivityTypeOut,
  CheckSessionOut,
  ContentTypeOut,
  CountryMapOut,
  MaintenanceWindow,
  ProductProfileOut,
  ProfileOut,
  SessionStatus,
  SubjectProfileOut,
  UserType,
  VerbOut,
} from '@kestrel/domain';

export type { MaintenanceWindow, SessionStatus, UserType };

/** GET /api/accounts/check-session/ and GET/PUT /api/user/: the contract's shapes. */
export type CheckSessionResponse = CheckSessionOut;
export type ProductProfile = ProductProfileOut;
export type SubjectProfile = SubjectProfileOut;
export type Profile = ProfileOut;

/** The bootstrap lists (contracts: contentTypeOut, activityTypeOut, verbOut, countryMapOut). */
export type ContentType = ContentTypeOut;
export type ActivityType = ActivityTypeOut;
export type Verb = VerbOut;
export type CountryMap = CountryMapOut;
export type CountryEntry = CountryMap[string];

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
