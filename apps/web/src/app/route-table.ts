import type { Entitlement, Permission } from '@kestrel/domain';
import type { ComponentType } from 'react';
// The sign-in page is in the entry chunk: it is the most common first visit, and loading it
// lazily would add a round trip before the first paint.
import LoginPage from '../features/auth/login-page';

/** Who a route is for; it picks the layout and the navigation rules that apply (spec point 2). */
export type Audience = 'public' | 'product' | 'ops' | 'subject';

type Loader = () => Promise<{ default: ComponentType }>;

export interface RouteDef {
  name: string;
  /** react-router pattern, e.g. '/cases/:id'. */
  path: string;
  audience: Audience;
  title: string;
  permissions?: readonly Permission[];
  entitlements?: readonly Entitlement[];
  /** Public: an authenticated user is sent on (to `next` or `/`). */
  guestOnly?: boolean;
  /** Public sign-in pages render in the light 'auth' frame (no data fetching library). */
  frame?: 'auth';
  /** A subject opening this route is redirected to the named /s/ route (same parameters). */
  subjectEquivalent?: string;
  load: Loader;
}

// Screens that later issues fill show this placeholder; their guards already work.
const coming: Loader = () => import('../components/coming-soon');

const r = (
  name: string,
  path: string,
  audience: Audience,
  title: string,
  load: Loader = coming,
  extra: Partial<RouteDef> = {},
): RouteDef => ({ name, path, audience, title, load, ...extra });

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
const groupChange = need('lms_licences.change_licence');
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
  r('login', '/login', 'public', 'Sign in', auth.login, { guestOnly: true, frame: 'auth' }),
  r('signup', '/signup', 'public', 'Sign up', auth.signup, { guestOnly: true, frame: 'auth' }),
  r(
    'new-customer-signup',
    '/auth/new-customer-signup',
    'public',
    'Create an organisation account',
    auth.newCustomer,
    { guestOnly: true, frame: 'auth' },
  ),
  r('user-not-ready', '/auth/user-not-ready', 'public', 'Account not ready', auth.notReady, {
    frame: 'auth',
  }),
  r('password-reset', '/auth/password-reset', 'public', 'Reset your password', auth.reset, {
    frame: 'auth',
  }),
  r(
    'password-reset-confirm',
    '/auth/password-reset-confirm',
    'public',
    'Choose a new password',
    auth.resetConfirm,
    { frame: 'auth' },
  ),
  r('set-password', '/auth/set-password', 'public', 'Set your password', auth.setPassword, {
    frame: 'auth',
  }),
  r('claim-account', '/auth/claim-account', 'public', 'Claim your account', auth.claim, {
    frame: 'auth',
  }),
  r('auth-callback', '/auth/callback', 'public', 'Signing you in', auth.callback, {
    frame: 'auth',
  }),
  r('social-error', '/auth/social-error', 'public', 'Sign-in problem', auth.socialError, {
    frame: 'auth',
  }),
  r(
    'self-initiate',
    '/self-initiate/:segmentId/:portalPath',
    'public',
    'Start your checks',
    coming,
    { subjectEquivalent: 's:self-initiate' },
  ),
  r('payment-portal', '/payment-portal/:id', 'public', 'Payment'),
  r('dbs-document-picker', '/dbs-document-picker', 'public', 'Identity documents'),
  r('application-portal', '/application-portals/:id', 'public', 'Apply for a licence', coming, {
    subjectEquivalent: 's:application-portal',
  }),
  r('bootstrap', '/bootstrap', 'public', 'Loading', auth.bootstrap, { frame: 'auth' }),

  // Product users
  r('root', '/', 'product', 'Home'),
  r('dashboard', '/dashboard', 'product', 'Dashboard', ws.dashboard),
  r('profile', '/profile', 'product', 'Your profile', profile.product),
  r('profile-totp', '/profile/totp', 'product', 'Two-factor authentication', profile.totp),
  r(
    'profile-totp-remove',
    '/profile/totp/remove',
    'product',
    'Turn off two-factor authentication',
    profile.totpRemove,
  ),
  r(
    'customer-account',
    '/customer-account',
    'product',
    'Organisation account',
    coming,
    need('customers.view_customer'),
  ),
  r('support', '/support', 'product', 'Support', () => import('../features/support/support-page')),
  r('definitions', '/definitions', 'product', 'Licence definitions', coming, defView),
  r(
    'definition-add',
    '/definitions/add',
    'product',
    'Add definition',
    coming,
    need('lms_definitions.add_definition'),
  ),
  r('definition', '/definitions/:id', 'product', 'Definition', coming, defView),
  r(
    'definition-details',
    '/definitions/:id/details',
    'product',
    'Definition details',
    coming,
    defChange,
  ),
  r(
    'definition-requirements',
    '/definitions/:id/requirements',
    'product',
    'Requirements',
    coming,
    defChange,
  ),
  r(
    'definition-application-portals',
    '/definitions/:id/application-portals',
    'product',
    'Application portals',
    coming,
    defView,
  ),
  r(
    'definition-application-portal-add',
    '/definitions/:id/application_portals/add',
    'product',
    'Add application portal',
    coming,
    defChange,
  ),
  r(
    'definition-application-portal',
    '/definitions/:id/application_portals/:appId',
    'product',
    'Application portal',
    coming,
    defChange,
  ),
  r('licence-groups', '/licence-groups', 'product', 'Licence groups', coming, lmsView),
  r(
    'licence-group-add',
    '/licence-groups/add',
    'product',
    'Add licence group',
    coming,
    need('lms_licences.add_licence'),
  ),
  r('licence-group', '/licence-groups/:id', 'product', 'Licence group', coming, lmsView),
  r(
    'licence-group-details',
    '/licence-groups/:id/details',
    'product',
    'Licence group details',
    coming,
    groupChange,
  ),
  r(
    'licence-sub-groups',
    '/licence-groups/:id/sub-groups',
    'product',
    'Sub-groups',
    coming,
    lmsView,
  ),
  r(
    'licence-sub-group-add',
    '/licence-groups/:id/sub-groups/add',
    'product',
    'Add sub-group',
    coming,
    groupChange,
  ),
  r(
    'licence-sub-group',
    '/licence-groups/:id/sub-groups/:subGroupId',
    'product',
    'Sub-group',
    coming,
    groupChange,
  ),
  r('licences', '/licences', 'product', 'Licences', coming, lmsView),
  r('processes', '/processes', 'product', 'Processes', ws.processes, procView),
  r(
    'process-add',
    '/processes/add',
    'product',
    'Add process',
    ws.processAdd,
    need('processes.add_process'),
  ),
  r('process', '/processes/:id', 'product', 'Process', ws.process, procView),
  r(
    'process-details',
    '/processes/:id/details',
    'product',
    'Process details',
    ws.processDetails,
    procChange,
  ),
  r(
    'process-configuration',
    '/processes/:id/configuration',
    'product',
    'Configuration',
    ws.processConfiguration,
    procChange,
  ),
  r(
    'process-requirements',
    '/processes/:id/requirements',
    'product',
    'Requirements',
    ws.processRequirements,
    procView,
  ),
  r(
    'registration-portals',
    '/processes/:id/registration-portals',
    'product',
    'Registration portals',
    coming,
    { ...need('registration_portals.view_registrationportal'), entitlements: ['regportals'] },
  ),
  r(
    'registration-portal-add',
    '/processes/:id/registration-portals/add',
    'product',
    'Add registration portal',
    coming,
    { ...need('registration_portals.add_registrationportal'), entitlements: ['regportals'] },
  ),
  r(
    'registration-portal-edit',
    '/processes/:id/registration-portals/:regPortalId/edit',
    'product',
    'Edit registration portal',
    coming,
    { ...need('registration_portals.change_registrationportal'), entitlements: ['regportals'] },
  ),
  r('cycles', '/processes/:id/cycles', 'product', 'Cycles', coming, {
    ...need('cycles.view_cycle'),
    entitlements: ['cycles'],
  }),
  r('cycle-add', '/processes/:id/cycles/add', 'product', 'Add cycle', coming, {
    ...need('cycles.add_cycle'),
    entitlements: ['cycles'],
  }),
  r('cycle-edit', '/processes/:id/cycles/:cycleId/edit', 'product', 'Edit cycle', coming, {
    ...need('cycles.change_cycle'),
    entitlements: ['cycles'],
  }),
  r('users', '/users', 'product', 'Users', coming, userView),
  r('user-add', '/users/add', 'product', 'Add user', coming, need('users.add_productuser')),
  r('user', '/users/:id', 'product', 'User', coming, userView),
  r(
    'user-edit',
    '/users/:id/edit',
    'product',
    'Edit user',
    coming,
    need('users.change_productuser'),
  ),
  r('payment-settings', '/payment-settings', 'product', 'Payment settings', coming, payView),
  r(
    'add-payment-method',
    '/payment-settings/add-payment-method',
    'product',
    'Add payment method',
    coming,
    need('payments.add_payment'),
  ),
  r('segments', '/segments', 'product', 'Segments', coming, segView),
  r('segment-add', '/segments/add', 'product', 'Add segment', coming, need('segments.add_segment')),
  r('segment', '/segments/:id', 'product', 'Segment', coming, segView),
  r('segment-details', '/segments/:id/details', 'product', 'Segment details', coming, segChange),
  r('segment-users', '/segments/:id/users', 'product', 'Segment users', coming, segView),
  r(
    'segment-processes',
    '/segments/:id/processes',
    'product',
    'Segment processes',
    coming,
    segView,
  ),
  r(
    'outstanding-activities',
    '/outstanding-activities',
    'product',
    'Outstanding activities',
    ws.outstanding,
    activityView,
  ),
  r(
    'outstanding-activity',
    '/outstanding-activities/:id',
    'product',
    'Outstanding activity',
    ws.outstandingDetail,
    activityView,
  ),
  r(
    'case-activities',
    '/case-activities',
    'product',
    'Case activities',
    ws.caseActivities,
    activityView,
  ),
  r('audit-log', '/audit-log', 'product', 'Audit log', ws.auditLog, need('audit.view_auditaction')),
  r('cases', '/cases', 'product', 'Cases', ws.cases, caseView),
  r('case-add', '/cases/add', 'product', 'Add case', ws.caseAdd, need('cases.add_case')),
  r('case-detail', '/cases/:id', 'product', 'Case', ws.caseDetail, caseView),
  r(
    'case-archive',
    '/cases/:id/archive',
    'product',
    'Archive case',
    ws.caseArchive,
    need('cases.view_case', 'cases.archive'),
  ),
  r('flags', '/flags', 'product', 'Flags', ws.flags, need('flags.view_flag')),
  r('payments', '/payments', 'product', 'Payments', coming, payView),
  r('payment', '/payments/:id', 'product', 'Payment', coming, payView),
  r('subjects', '/subjects', 'product', 'Subjects', ws.subjects, subjView),
  r(
    'subject-registrations',
    '/subjects/registrations',
    'product',
    'Registrations',
    coming,
    subjView,
  ),
  r('subject-consents', '/subjects/consents', 'product', 'Consents', coming, subjView),
  r(
    'subject-duplicates',
    '/subjects/duplicates',
    'product',
    'Possible duplicates',
    ws.subjectDuplicates,
    {
      ...subjView,
      entitlements: ['subject_dedup'],
    },
  ),
  r(
    'subject-add',
    '/subjects/add',
    'product',
    'Add subject',
    ws.subjectAdd,
    need('subjects.add_subject'),
  ),
  r('subject', '/subjects/:id', 'product', 'Subject', ws.subject, subjView),
  r(
    'subject-subscriptions',
    '/subjects/:id/subscriptions',
    'product',
    'Subscriptions',
    ws.subjectSubscriptions,
    need('subjects.view_subject', 'subscriptions.view_subscription'),
  ),
  r(
    'subject-subscription-add',
    '/subjects/:id/subscriptions/add',
    'product',
    'Add subscription',
    coming,
    need('subjects.view_subject', 'subscriptions.add_subscription'),
  ),
  r(
    'subject-archive',
    '/subjects/:id/archive',
    'product',
    'Archive subject',
    ws.subjectArchive,
    need('subjects.view_subject', 'subjects.archive'),
  ),
  r(
    'portal-registration',
    '/portal-registrations/:id',
    'product',
    'Portal registration',
    coming,
    subjView,
  ),
  r(
    'subscriptions',
    '/subscriptions',
    'product',
    'Subscriptions',
    coming,
    need('subscriptions.view_subscription'),
  ),
  r('lms-council-list', '/lms/council-list', 'product', 'Councils', coming, {
    subjectEquivalent: 's:lms-council-list',
  }),
  r('lms-council', '/lms/:councilId', 'product', 'Council licences', coming, {
    subjectEquivalent: 's:lms-council',
  }),
  r('lms-licence-group', '/lms/:councilId/:licenceGroupId', 'product', 'Licence group', coming, {
    subjectEquivalent: 's:lms-licence-group',
  }),
  r(
    'lms-licence-sub-group',
    '/lms/:councilId/:licenceGroupId/:licenceSubGroupId',
    'product',
    'Licence sub-group',
    coming,
    { subjectEquivalent: 's:lms-licence-sub-group' },
  ),

  // Operations
  r('ops:dashboard', '/ops/dashboard', 'ops', 'Operations', coming, ops),
  r(
    'ops:outstanding-activities',
    '/ops/outstanding-activities',
    'ops',
    'Outstanding activities',
    opsScreens.outstanding,
    opsActivities,
  ),
  r(
    'ops:outstanding-activity',
    '/ops/outstanding-activities/:id',
    'ops',
    'Outstanding activity',
    opsScreens.outstandingDetail,
    opsActivities,
  ),
  r('ops:customers', '/ops/customers', 'ops', 'Customers', coming, opsCustomers),
  r(
    'ops:customer-add',
    '/ops/customers/add',
    'ops',
    'Add customer',
    coming,
    need('customers.ops_access', 'customers.add_customer'),
  ),
  r('ops:customer', '/ops/customers/:id', 'ops', 'Customer', coming, opsCustomers),
  r(
    'ops:customer-edit',
    '/ops/customers/:id/edit',
    'ops',
    'Edit customer',
    coming,
    opsCustomerEdit,
  ),
  r(
    'ops:customer-entitlements',
    '/ops/customers/:id/entitlements',
    'ops',
    'Entitlements',
    coming,
    opsCustomerEdit,
  ),
  r(
    'ops:customer-segments',
    '/ops/customers/:id/segments',
    'ops',
    'Segments',
    coming,
    opsCustomers,
  ),
  r('ops:customer-users', '/ops/customers/:id/users', 'ops', 'Users', coming, opsCustomers),
  r('ops:pricebooks', '/ops/customers/:id/pricebooks', 'ops', 'Pricebooks', coming, opsPricebooks),
  r(
    'ops:pricebook-add',
    '/ops/customers/:id/pricebooks/add',
    'ops',
    'Add pricebook',
    coming,
    need('customers.ops_access', 'pricebooks.add_pricebook'),
  ),
  r(
    'ops:pricebook-edit',
    '/ops/customers/:id/pricebooks/:pbId/edit',
    'ops',
    'Edit pricebook',
    coming,
    need('customers.ops_access', 'pricebooks.change_pricebook'),
  ),
  r(
    'ops:trust-2-ride',
    '/ops/trust-2-ride',
    'ops',
    'Trust to ride',
    coming,
    need('customers.ops_access', 'trust_to_ride.view_trusttoride'),
  ),
  r(
    'ops:imports',
    '/ops/imports',
    'ops',
    'Imports',
    coming,
    need('customers.ops_access', 'imports.view_import'),
  ),
  r(
    'ops:import',
    '/ops/imports/:id',
    'ops',
    'Import',
    coming,
    need('customers.ops_access', 'imports.view_import'),
  ),
  r(
    'ops:portal-payments',
    '/ops/portal-payments',
    'ops',
    'Portal payments',
    coming,
    need('customers.ops_access', 'payments.view_all_portal_payments'),
  ),
  r(
    'ops:portal-payment',
    '/ops/portal-payments/:id',
    'ops',
    'Portal payment',
    coming,
    need('customers.ops_access', 'payments.view_all_portal_payments'),
  ),
  r(
    'ops:product-payments',
    '/ops/product-payments',
    'ops',
    'Product payments',
    coming,
    need('customers.ops_access', 'payments.view_all_product_payments'),
  ),
  r(
    'ops:product-payment',
    '/ops/product-payments/:id',
    'ops',
    'Product payment',
    coming,
    need('customers.ops_access', 'payments.view_all_product_payments'),
  ),
  r('ops:outbox', '/ops/outbox', 'ops', 'Outbox', opsScreens.outbox, opsOutbox),
  r('ops:outbox-email', '/ops/outbox/:id', 'ops', 'Email', opsScreens.outboxEmail, opsOutbox),

  // Subjects
  r('s:dashboard', '/s/dashboard', 'subject', 'Your checks'),
  r('s:profile', '/s/profile', 'subject', 'Your profile', profile.subject),
  r(
    's:complete-profile',
    '/s/complete-profile',
    'subject',
    'Complete your profile',
    profile.complete,
  ),
  r('s:dvla-reconsent', '/s/dvla-reconsent', 'subject', 'Driving licence consent'),
  r('s:self-initiate', '/s/self-initiate/:segmentId/:portalPath', 'subject', 'Start your checks'),
  r('s:case-portal', '/s/case-portal/:id/:section', 'subject', 'Your case'),
  r('s:cases', '/s/cases', 'subject', 'Your cases'),
  r('subject-case-detail', '/s/cases/:id', 'subject', 'Case'),
  r('s:consents', '/s/consents', 'subject', 'Consents'),
  r('s:application-portal', '/s/application-portals/:id', 'subject', 'Apply for a licence'),
  r('s:lms-council-list', '/s/lms/council-list', 'subject', 'Councils'),
  r('s:lms-council', '/s/lms/:councilId', 'subject', 'Council licences'),
  r('s:lms-licence-group', '/s/lms/:councilId/:licenceGroupId', 'subject', 'Licence group'),
  r(
    's:lms-licence-sub-group',
    '/s/lms/:councilId/:licenceGroupId/:licenceSubGroupId',
    'subject',
    'Licence sub-group',
  ),
];

const byName = new Map(ROUTES.map((route) => [route.name, route]));

export function routeByName(name: string): RouteDef | undefined {
  return byName.get(name);
}
