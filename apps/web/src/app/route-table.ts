import type { Entitlement, Permission } from '@kestrel/domain';
import type { ComponentType } from 'react';
import { PATHS, type RouteName, type RoutePattern } from '../config/paths';
// The sign-in page is in the entry chunk: it is the most common first visit, and loading it
// lazily would add a round trip before the first paint.
import LoginPage from '../features/auth/login-page';

/** Who a route is for; it picks the layout and the navigation rules that apply (spec point 2). */
export type Audience = 'public' | 'product' | 'ops' | 'subject';

type Loader = () => Promise<{ default: ComponentType }>;

export interface RouteDef {
  name: RouteName;
  /** react-router pattern, e.g. '/cases/:id' (from `config/paths.ts`). */
  path: RoutePattern;
  audience: Audience;
  title: string;
  permissions?: readonly Permission[];
  entitlements?: readonly Entitlement[];
  /** Public: an authenticated user is sent on (to `next` or `/`). */
  guestOnly?: boolean;
  /**
   * Public sign-in pages render in the light 'auth' frame (no data fetching library); the
   * bootstrap step in the 'bare' frame (no frame at all: a signed-in user passes through it).
   */
  frame?: 'auth' | 'bare';
  /** A subject opening this route is redirected to the named /s/ route (same parameters). */
  subjectEquivalent?: RouteName;
  load: Loader;
}

// The case portal: one frame, each section a lazy chunk of its own (features/portal/sections).
const portal: Loader = () => import('../features/portal/case-portal-page');

// Screens that later issues fill show this placeholder; their guards already work.
const coming: Loader = () => import('../components/coming-soon');

/** A route's screen file name: the route name with ':' written as '-' (see `screens.ts`). */
export function screenFileName(name: RouteName): string {
  return `${name.replaceAll(':', '-')}.tsx`;
}

/**
 * A route left at `coming` uses its screen found by convention when one exists
 * (`features/<feature>/screens/<route name>.tsx`, loaded through the lazy `screens.ts`), so a
 * new screen needs no edit here.
 */
const conventional =
  (name: RouteName): Loader =>
  () =>
    import('./screens').then((m) => m.loadScreen(screenFileName(name)) ?? coming());

const r = (
  name: RouteName,
  audience: Audience,
  title: string,
  load: Loader = coming,
  extra: Partial<RouteDef> = {},
): RouteDef => ({
  name,
  path: PATHS[name],
  audience,
  title,
  load: load === coming ? conventional(name) : load,
  ...extra,
});

const need = (...permissions: Permission[]) => ({ permissions });

const auth = {
  login: async () => ({ default: LoginPage }),
  signup: () => import('../features/auth/signup-page'),
  newCustomer: () => import('../features/auth/new-customer-signup-page'),
  notReady: () => import('../features/auth/user-not-ready-page'),
  reset: () => import('../features/auth/password-reset-page'),
  resetConfirm: () => import('../features/auth/password-reset-confirm-page'),
  setPassword: () => import('../features/auth/set-password-page'),
  claim: () => import('../features/auth/claim-account-page'),
  callback: () => import('../features/auth/auth-callback-page'),
  socialError: () => import('../features/auth/social-error-page'),
  bootstrap: () => import('../features/auth/bootstrap-page'),
} satisfies Record<string, Loader>;

const profile = {
  product: () => import('../features/profile/profile-page'),
  totp: () => import('../features/profile/totp-page'),
  totpRemove: () => import('../features/profile/totp-remove-page'),
  subject: () => import('../features/profile/subject-profile-page'),
  complete: () => import('../features/profile/complete-profile-page'),
} satisfies Record<string, Loader>;

// Customer workspace screens (issue 5).
const ws = {
  dashboard: () => import('../features/dashboard/routes/dashboard'),
  processes: () => import('../features/processes/routes/process-list'),
  processAdd: () => import('../features/processes/routes/process-add'),
  process: () => import('../features/processes/routes/process-overview'),
  processDetails: () => import('../features/processes/routes/process-details'),
  processConfiguration: () => import('../features/processes/routes/process-configuration'),
  processRequirements: () => import('../features/processes/routes/process-requirements'),
  subjects: () => import('../features/subjects/routes/subject-list'),
  subjectAdd: () => import('../features/subjects/routes/subject-add'),
  subject: () => import('../features/subjects/routes/subject-detail'),
  subjectSubscriptions: () => import('../features/subjects/routes/subject-subscriptions'),
  subjectArchive: () => import('../features/subjects/routes/subject-archive'),
  subjectDuplicates: () => import('../features/subjects/routes/subject-duplicates'),
  cases: () => import('../features/cases/routes/case-list'),
  caseAdd: () => import('../features/cases/routes/case-add'),
  caseDetail: () => import('../features/cases/routes/case-detail'),
  caseArchive: () => import('../features/cases/routes/case-archive'),
  caseActivities: () => import('../features/activities/routes/case-activities'),
  outstanding: () => import('../features/activities/routes/outstanding-list'),
  outstandingDetail: () => import('../features/activities/routes/outstanding-detail'),
  flags: () => import('../features/flags/routes/flag-list'),
  auditLog: () => import('../features/audit/routes/audit-log'),
} satisfies Record<string, Loader>;

// Subject account screens (issue 16).
const subj = {
  dashboard: () => import('../features/subject/dashboard-page'),
  cases: () => import('../features/subject/cases-page'),
  caseDetail: () => import('../features/subject/case-detail-page'),
  consents: () => import('../features/subject/consents-page'),
  dvlaReconsent: () => import('../features/subject/dvla-reconsent-page'),
} satisfies Record<string, Loader>;

// Operations screens.
const opsScreens = {
  outstanding: () => import('../features/activities/routes/ops-outstanding-list'),
  outstandingDetail: () => import('../features/activities/routes/ops-outstanding-detail'),
  outbox: () => import('../features/outbox/routes/outbox-list'),
  outboxEmail: () => import('../features/outbox/routes/outbox-detail'),
} satisfies Record<string, Loader>;

const lmsView = need('lms_licences.view_licence');
const defView = need('lms_definitions.view_definition');
const defChange = need('lms_definitions.change_definition');
const procView = need('processes.view_process');
const procChange = need('processes.change_process');
const segView = need('segments.view_segment');
const segChange = need('segments.change_segment');
const userView = need('users.view_productuser');
const caseView = need('cases.view_case');
const activityView = need('cases.view_caseactivity');
const subjView = need('subjects.view_subject');
const payView = need('payments.view_payment');
const ops = need('customers.ops_access');
const opsCustomers = need('customers.ops_access', 'customers.view_all_customers');
const opsCustomerEdit = need('customers.ops_access', 'customers.change_customer');
const opsPricebooks = need('customers.ops_access', 'pricebooks.view_pricebook');
const opsOutbox = need('customers.ops_access', 'outbox.view_email');
const opsActivities = need('customers.ops_access', 'cases.view_caseactivity');

export const ROUTES: readonly RouteDef[] = [
  // Public
  r('login', 'public', 'Sign in', auth.login, { guestOnly: true, frame: 'auth' }),
  r('signup', 'public', 'Sign up', auth.signup, { guestOnly: true, frame: 'auth' }),
  r('new-customer-signup', 'public', 'Create an organisation account', auth.newCustomer, {
    guestOnly: true,
    frame: 'auth',
  }),
  r('user-not-ready', 'public', 'Account not ready', auth.notReady, {
    frame: 'auth',
  }),
  r('password-reset', 'public', 'Reset your password', auth.reset, {
    frame: 'auth',
  }),
  r('password-reset-confirm', 'public', 'Choose a new password', auth.resetConfirm, {
    frame: 'auth',
  }),
  r('set-password', 'public', 'Set your password', auth.setPassword, {
    frame: 'auth',
  }),
  r('claim-account', 'public', 'Claim your account', auth.claim, {
    frame: 'auth',
  }),
  r('auth-callback', 'public', 'Signing you in', auth.callback, {
    frame: 'auth',
  }),
  r('social-error', 'public', 'Sign-in problem', auth.socialError, {
    frame: 'auth',
  }),
  r('self-initiate', 'public', 'Start your checks', coming, {
    subjectEquivalent: 's:self-initiate',
  }),
  r(
    'payment-portal',
    'public',
    'Payment',
    () => import('../features/payment-portal/payment-portal-page'),
  ),
  r(
    'dbs-document-picker',
    'public',
    'Identity documents',
    () => import('../features/dbs-document-picker/dbs-document-picker-page'),
  ),
  r('application-portal', 'public', 'Apply for a licence', coming, {
    subjectEquivalent: 's:application-portal',
  }),
  // Council licence browsing (issue 32): public pages, the /s/ forms for a signed-in subject.
  r('lms-council-list', 'public', 'Apply for a licence', coming, {
    subjectEquivalent: 's:lms-council-list',
  }),
  r('lms-council', 'public', 'Council licences', coming, {
    subjectEquivalent: 's:lms-council',
  }),
  r('lms-licence-group', 'public', 'Licence group', coming, {
    subjectEquivalent: 's:lms-licence-group',
  }),
  r('lms-licence-sub-group', 'public', 'Licence sub-group', coming, {
    subjectEquivalent: 's:lms-licence-sub-group',
  }),
  r('bootstrap', 'public', 'Loading', auth.bootstrap, { frame: 'bare' }),

  // Product users
  r('root', 'product', 'Home'),
  r('dashboard', 'product', 'Dashboard', ws.dashboard),
  r('profile', 'product', 'Your profile', profile.product),
  r('profile-totp', 'product', 'Two-factor authentication', profile.totp),
  r('profile-totp-remove', 'product', 'Turn off two-factor authentication', profile.totpRemove),
  r('customer-account', 'product', 'Organisation account', coming, need('customers.view_customer')),
  // retention and automatic redaction (issue 34): the rules, and what falls due in 30 days
  r(
    'customer-account-retention',
    'product',
    'Data retention',
    coming,
    need('customers.view_customer'),
  ),
  r(
    'customer-account-retention-due',
    'product',
    'Due for redaction',
    coming,
    need('customers.view_customer', 'cases.view_case'),
  ),
  r('support', 'product', 'Support', () => import('../features/support/support-page')),
  r('definitions', 'product', 'Licence definitions', coming, defView),
  r('definition-add', 'product', 'Add definition', coming, need('lms_definitions.add_definition')),
  r('definition', 'product', 'Definition', coming, defView),
  r('definition-details', 'product', 'Definition details', coming, defChange),
  r('definition-requirements', 'product', 'Requirements', coming, defView),
  r('definition-application-portals', 'product', 'Application portals', coming, defView),
  r(
    'definition-application-portal-add',
    'product',
    'Add application portal',
    coming,
    need('lms_definitions.add_definition'),
  ),
  r('definition-application-portal', 'product', 'Application portal', coming, defView),
  // Groups and sub-groups are the definitions' frame: the API guards them with lms_definitions.*.
  r('licence-groups', 'product', 'Licence groups', coming, defView),
  r(
    'licence-group-add',
    'product',
    'Add licence group',
    coming,
    need('lms_definitions.add_definition'),
  ),
  r('licence-group', 'product', 'Licence group', coming, defView),
  r('licence-group-details', 'product', 'Licence group details', coming, defChange),
  r('licence-sub-groups', 'product', 'Sub-groups', coming, defView),
  r(
    'licence-sub-group-add',
    'product',
    'Add sub-group',
    coming,
    need('lms_definitions.add_definition'),
  ),
  r('licence-sub-group', 'product', 'Sub-group', coming, defView),
  r('licences', 'product', 'Licences', coming, lmsView),
  r('processes', 'product', 'Processes', ws.processes, procView),
  r('process-add', 'product', 'Add process', ws.processAdd, need('processes.add_process')),
  r('process', 'product', 'Process', ws.process, procView),
  r('process-details', 'product', 'Process details', ws.processDetails, procChange),
  r('process-configuration', 'product', 'Configuration', ws.processConfiguration, procChange),
  r('process-requirements', 'product', 'Requirements', ws.processRequirements, procView),
  r('registration-portals', 'product', 'Registration portals', coming, {
    ...need('registration_portals.view_registrationportal'),
    entitlements: ['regportals'],
  }),
  r('registration-portal-add', 'product', 'Add registration portal', coming, {
    ...need('registration_portals.add_registrationportal'),
    entitlements: ['regportals'],
  }),
  r('registration-portal-edit', 'product', 'Edit registration portal', coming, {
    ...need('registration_portals.change_registrationportal'),
    entitlements: ['regportals'],
  }),
  r('cycles', 'product', 'Cycles', coming, {
    ...need('cycles.view_cycle'),
    entitlements: ['cycles'],
  }),
  r('cycle-add', 'product', 'Add cycle', coming, {
    ...need('cycles.add_cycle'),
    entitlements: ['cycles'],
  }),
  r('cycle-edit', 'product', 'Edit cycle', coming, {
    ...need('cycles.change_cycle'),
    entitlements: ['cycles'],
  }),
  r('users', 'product', 'Users', coming, userView),
  r('user-add', 'product', 'Add user', coming, need('users.add_productuser')),
  r('user', 'product', 'User', coming, userView),
  r('user-edit', 'product', 'Edit user', coming, need('users.change_productuser')),
  r('payment-settings', 'product', 'Payment settings', coming, payView),
  r('add-payment-method', 'product', 'Add payment method', coming, need('payments.add_payment')),
  r('segments', 'product', 'Segments', coming, segView),
  r('segment-add', 'product', 'Add segment', coming, need('segments.add_segment')),
  r('segment', 'product', 'Segment', coming, segView),
  r('segment-details', 'product', 'Segment details', coming, segChange),
  r('segment-users', 'product', 'Segment users', coming, segView),
  r('segment-processes', 'product', 'Segment processes', coming, segView),
  r('outstanding-activities', 'product', 'Outstanding activities', ws.outstanding, activityView),
  r('outstanding-activity', 'product', 'Outstanding activity', ws.outstandingDetail, activityView),
  r('case-activities', 'product', 'Case activities', ws.caseActivities, activityView),
  r('audit-log', 'product', 'Audit log', ws.auditLog, need('audit.view_auditaction')),
  // issue 33: what expires in the next 90 days (features/expiry-calendar/screens)
  r('expiry-calendar', 'product', 'Expiry calendar', coming, subjView),
  r('cases', 'product', 'Cases', ws.cases, caseView),
  r('case-add', 'product', 'Add case', ws.caseAdd, need('cases.add_case')),
  // issue 33: a case each for the people of a CSV (features/bulk-invite/screens)
  r(
    'case-bulk-invite',
    'product',
    'Bulk invite',
    coming,
    need('cases.add_case', 'subjects.add_subject'),
  ),
  r('case-detail', 'product', 'Case', ws.caseDetail, caseView),
  r(
    'case-archive',
    'product',
    'Archive case',
    ws.caseArchive,
    need('cases.view_case', 'cases.archive'),
  ),
  r('flags', 'product', 'Flags', ws.flags, need('flags.view_flag')),
  r('payments', 'product', 'Payments', coming, payView),
  r('payment', 'product', 'Payment', coming, payView),
  r('subjects', 'product', 'Subjects', ws.subjects, subjView),
  r('subject-registrations', 'product', 'Registrations', coming, {
    ...subjView,
    entitlements: ['regportals'],
  }),
  r('subject-consents', 'product', 'Consents', coming, subjView),
  r(
    'subject-data-requests',
    'product',
    'Erasure requests',
    () => import('../features/data-requests/data-requests-page'),
    subjView,
  ),
  r('subject-duplicates', 'product', 'Possible duplicates', ws.subjectDuplicates, {
    ...subjView,
    entitlements: ['subject_dedup'],
  }),
  r('subject-add', 'product', 'Add subject', ws.subjectAdd, need('subjects.add_subject')),
  r('subject', 'product', 'Subject', ws.subject, subjView),
  r('subject-subscriptions', 'product', 'Subscriptions', ws.subjectSubscriptions, {
    ...need('subjects.view_subject', 'subscriptions.view_subscription'),
    entitlements: ['cycles'],
  }),
  r('subject-subscription-add', 'product', 'Add subscription', coming, {
    ...need('subjects.view_subject', 'subscriptions.add_subscription'),
    entitlements: ['cycles'],
  }),
  r(
    'subject-archive',
    'product',
    'Archive subject',
    ws.subjectArchive,
    need('subjects.view_subject', 'subjects.archive'),
  ),
  r('portal-registration', 'product', 'Portal registration', coming, {
    ...subjView,
    entitlements: ['regportals'],
  }),
  r('subscriptions', 'product', 'Subscriptions', coming, {
    ...need('subscriptions.view_subscription'),
    entitlements: ['cycles'],
  }),

  // Operations
  r('ops:dashboard', 'ops', 'Operations', coming, ops),
  r(
    'ops:outstanding-activities',
    'ops',
    'Outstanding activities',
    opsScreens.outstanding,
    opsActivities,
  ),
  r(
    'ops:outstanding-activity',
    'ops',
    'Outstanding activity',
    opsScreens.outstandingDetail,
    opsActivities,
  ),
  r('ops:customers', 'ops', 'Customers', coming, opsCustomers),
  r(
    'ops:customer-add',
    'ops',
    'Add customer',
    coming,
    need('customers.ops_access', 'customers.add_customer'),
  ),
  r('ops:customer', 'ops', 'Customer', coming, opsCustomers),
  r('ops:customer-edit', 'ops', 'Edit customer', coming, opsCustomerEdit),
  r('ops:customer-entitlements', 'ops', 'Entitlements', coming, opsCustomerEdit),
  r('ops:customer-segments', 'ops', 'Segments', coming, opsCustomers),
  r('ops:customer-users', 'ops', 'Users', coming, opsCustomers),
  r('ops:pricebooks', 'ops', 'Pricebooks', coming, opsPricebooks),
  r(
    'ops:pricebook-add',
    'ops',
    'Add pricebook',
    coming,
    need('customers.ops_access', 'pricebooks.add_pricebook'),
  ),
  r(
    'ops:pricebook-edit',
    'ops',
    'Edit pricebook',
    coming,
    need('customers.ops_access', 'pricebooks.change_pricebook'),
  ),
  r(
    'ops:trust-2-ride',
    'ops',
    'Trust to ride',
    () => import('../features/trust-to-ride/routes/trust-to-ride-page'),
    need('customers.ops_access', 'trust_to_ride.view_trusttoride'),
  ),
  r('ops:imports', 'ops', 'Imports', coming, need('customers.ops_access', 'imports.view_import')),
  r('ops:import', 'ops', 'Import', coming, need('customers.ops_access', 'imports.view_import')),
  r(
    'ops:portal-payments',
    'ops',
    'Portal payments',
    coming,
    need('customers.ops_access', 'payments.view_all_portal_payments'),
  ),
  r(
    'ops:portal-payment',
    'ops',
    'Portal payment',
    coming,
    need('customers.ops_access', 'payments.view_all_portal_payments'),
  ),
  r(
    'ops:product-payments',
    'ops',
    'Product payments',
    coming,
    need('customers.ops_access', 'payments.view_all_product_payments'),
  ),
  r(
    'ops:product-payment',
    'ops',
    'Product payment',
    coming,
    need('customers.ops_access', 'payments.view_all_product_payments'),
  ),
  // issue 33: dead jobs, retried or discarded (features/ops-jobs/screens/ops-jobs.tsx)
  r('ops:jobs', 'ops', 'Jobs', coming, ops),
  // issue 33: checks past their expected date (features/ops-escalations/screens/ops-escalations.tsx)
  r('ops:escalations', 'ops', 'Escalations', coming, ops),
  r('ops:outbox', 'ops', 'Outbox', opsScreens.outbox, opsOutbox),
  r('ops:outbox-email', 'ops', 'Email', opsScreens.outboxEmail, opsOutbox),
  r(
    'ops:maintenance',
    'ops',
    'Maintenance',
    coming,
    need('customers.ops_access', 'maintenance.change_maintenancewindow'),
  ),

  // Subjects
  r('s:dashboard', 'subject', 'Your checks', subj.dashboard),
  r('s:profile', 'subject', 'Your profile', profile.subject),
  r('s:complete-profile', 'subject', 'Complete your profile', profile.complete),
  r('s:dvla-reconsent', 'subject', 'Driving licence consent', subj.dvlaReconsent),
  r('s:self-initiate', 'subject', 'Start your checks'),
  r('s:case-portal', 'subject', 'Your case', portal),
  r('s:case-portal-resume', 'subject', 'Your case', portal),
  r('s:cases', 'subject', 'Your cases', subj.cases),
  r('subject-case-detail', 'subject', 'Case', subj.caseDetail),
  r('s:consents', 'subject', 'Consents', subj.consents),
  r('s:application-portal', 'subject', 'Apply for a licence'),
  r('s:lms-application', 'subject', 'Your licence application'),
  r('s:lms-council-list', 'subject', 'Apply for a licence'),
  r('s:lms-council', 'subject', 'Council licences'),
  r('s:lms-licence-group', 'subject', 'Licence group'),
  r('s:lms-licence-sub-group', 'subject', 'Licence sub-group'),
];

const byName = new Map<string, RouteDef>(ROUTES.map((route) => [route.name, route]));

export function routeByName(name: string): RouteDef | undefined {
  return byName.get(name);
}
