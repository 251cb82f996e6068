import type {
  BootstrapData,
  ProductProfile,
  SessionState,
  SubjectProfile,
} from '../lib/session/types';

// Session fixtures for the tests of the navigation rules and the rights.
export const product = (over: Partial<ProductProfile> = {}): ProductProfile => ({
  id: 1,
  user_type: 'ProductUser',
  first_name: 'Ada',
  last_name: 'Admin',
  username: 'admin@acme.test',
  email: 'admin@acme.test',
  job_title: '',
  dark_mode: false,
  totp_enabled: false,
  totp_setup_required: false,
  notifications: true,
  avatar: null,
  roles: ['admin'],
  is_ops: false,
  customer: { id: 1, name: 'Acme', demo_mode: false },
  session_permissions: ['cases.view_case', 'subjects.view_subject'],
  entitlements: [],
  terms_agreed_at: '2026-01-01T00:00:00Z',
  ...over,
});
export const subject = (over: Partial<SubjectProfile> = {}): SubjectProfile => ({
  id: 2,
  user_type: 'SubjectUser',
  first_name: 'Sam',
  last_name: 'Subject',
  middlename: '',
  email: 'subject@example.test',
  dark_mode: false,
  dob: '1990-01-01',
  can_change_dob: false,
  phone_number: '',
  terms_agreed_at: '2026-01-01T00:00:00Z',
  dbs_email_notifications: false,
  dvla_reconsents: [],
  ...over,
});
export const boot = (
  profile: ProductProfile | SubjectProfile,
  entitlements: string[] = [],
): BootstrapData => ({
  profile,
  contentTypes: [],
  activityTypes: [],
  verbs: [],
  entitlements,
  activeFlags: 0,
  countries: {},
});
export const base: SessionState = {
  status: 'logged-out',
  userType: null,
  sessionCustomer: null,
  activeFlags: 0,
  maintenanceWindow: null,
  down: false,
  bootstrap: null,
};
export const loggedOut = base;
export const productIn = (p = product(), entitlements: string[] = []): SessionState => ({
  ...base,
  status: 'logged-in',
  userType: 'ProductUser',
  bootstrap: boot(p, entitlements),
});
export const subjectIn = (s = subject()): SessionState => ({
  ...base,
  status: 'logged-in',
  userType: 'SubjectUser',
  bootstrap: boot(s),
});
