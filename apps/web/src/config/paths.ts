import { generatePath } from 'react-router';
import { buildQuery, type QueryParams } from '../api/query-string';

/**
 * Every route's name and react-router pattern, as plain data (no screens imported): links,
 * redirects and the navigation rules use the names; `app/route-table.ts` adds each route's
 * audience, title, rights and screen.
 */
export const PATHS = {
  login: '/login',
  signup: '/signup',
  'new-customer-signup': '/auth/new-customer-signup',
  'user-not-ready': '/auth/user-not-ready',
  'password-reset': '/auth/password-reset',
  'password-reset-confirm': '/auth/password-reset-confirm',
  'set-password': '/auth/set-password',
  'claim-account': '/auth/claim-account',
  'auth-callback': '/auth/callback',
  'social-error': '/auth/social-error',
  'self-initiate': '/self-initiate/:segmentId/:portalPath',
  'payment-portal': '/payment-portal/:id',
  'dbs-document-picker': '/dbs-document-picker',
  'application-portal': '/application-portals/:id',
  bootstrap: '/bootstrap',
  root: '/',
  dashboard: '/dashboard',
  profile: '/profile',
  'profile-totp': '/profile/totp',
  'profile-totp-remove': '/profile/totp/remove',
  'customer-account': '/customer-account',
  'customer-account-retention': '/customer-account/retention',
  'customer-account-retention-due': '/customer-account/retention/due',
  support: '/support',
  definitions: '/definitions',
  'definition-add': '/definitions/add',
  definition: '/definitions/:id',
  'definition-details': '/definitions/:id/details',
  'definition-requirements': '/definitions/:id/requirements',
  'definition-application-portals': '/definitions/:id/application-portals',
  'definition-application-portal-add': '/definitions/:id/application_portals/add',
  'definition-application-portal': '/definitions/:id/application_portals/:appId',
  'licence-groups': '/licence-groups',
  'licence-group-add': '/licence-groups/add',
  'licence-group': '/licence-groups/:id',
  'licence-group-details': '/licence-groups/:id/details',
  'licence-sub-groups': '/licence-groups/:id/sub-groups',
  'licence-sub-group-add': '/licence-groups/:id/sub-groups/add',
  'licence-sub-group': '/licence-groups/:id/sub-groups/:subGroupId',
  licences: '/licences',
  processes: '/processes',
  'process-add': '/processes/add',
  process: '/processes/:id',
  'process-details': '/processes/:id/details',
  'process-configuration': '/processes/:id/configuration',
  'process-requirements': '/processes/:id/requirements',
  'registration-portals': '/processes/:id/registration-portals',
  'registration-portal-add': '/processes/:id/registration-portals/add',
  'registration-portal-edit': '/processes/:id/registration-portals/:regPortalId/edit',
  cycles: '/processes/:id/cycles',
  'cycle-add': '/processes/:id/cycles/add',
  'cycle-edit': '/processes/:id/cycles/:cycleId/edit',
  users: '/users',
  'user-add': '/users/add',
  user: '/users/:id',
  'user-edit': '/users/:id/edit',
  'payment-settings': '/payment-settings',
  'add-payment-method': '/payment-settings/add-payment-method',
  segments: '/segments',
  'segment-add': '/segments/add',
  segment: '/segments/:id',
  'segment-details': '/segments/:id/details',
  'segment-users': '/segments/:id/users',
  'segment-processes': '/segments/:id/processes',
  'outstanding-activities': '/outstanding-activities',
  'outstanding-activity': '/outstanding-activities/:id',
  'case-activities': '/case-activities',
  'audit-log': '/audit-log',
  'expiry-calendar': '/expiry-calendar',
  cases: '/cases',
  'case-add': '/cases/add',
  'case-bulk-invite': '/cases/bulk-invite',
  'case-detail': '/cases/:id',
  'case-archive': '/cases/:id/archive',
  flags: '/flags',
  payments: '/payments',
  payment: '/payments/:id',
  subjects: '/subjects',
  'subject-registrations': '/subjects/registrations',
  'subject-consents': '/subjects/consents',
  'subject-data-requests': '/subjects/data-requests',
  'subject-duplicates': '/subjects/duplicates',
  'subject-add': '/subjects/add',
  subject: '/subjects/:id',
  'subject-subscriptions': '/subjects/:id/subscriptions',
  'subject-subscription-add': '/subjects/:id/subscriptions/add',
  'subject-archive': '/subjects/:id/archive',
  'portal-registration': '/portal-registrations/:id',
  subscriptions: '/subscriptions',
  'lms-council-list': '/lms/council-list',
  'lms-council': '/lms/:councilId',
  'lms-licence-group': '/lms/:councilId/:licenceGroupId',
  'lms-licence-sub-group': '/lms/:councilId/:licenceGroupId/:licenceSubGroupId',
  'ops:dashboard': '/ops/dashboard',
  'ops:outstanding-activities': '/ops/outstanding-activities',
  'ops:outstanding-activity': '/ops/outstanding-activities/:id',
  'ops:customers': '/ops/customers',
  'ops:customer-add': '/ops/customers/add',
  'ops:customer': '/ops/customers/:id',
  'ops:customer-edit': '/ops/customers/:id/edit',
  'ops:customer-entitlements': '/ops/customers/:id/entitlements',
  'ops:customer-segments': '/ops/customers/:id/segments',
  'ops:customer-users': '/ops/customers/:id/users',
  'ops:pricebooks': '/ops/customers/:id/pricebooks',
  'ops:pricebook-add': '/ops/customers/:id/pricebooks/add',
  'ops:pricebook-edit': '/ops/customers/:id/pricebooks/:pbId/edit',
  'ops:trust-2-ride': '/ops/trust-2-ride',
  'ops:imports': '/ops/imports',
  'ops:import': '/ops/imports/:id',
  'ops:portal-payments': '/ops/portal-payments',
  'ops:portal-payment': '/ops/portal-payments/:id',
  'ops:product-payments': '/ops/product-payments',
  'ops:product-payment': '/ops/product-payments/:id',
  'ops:jobs': '/ops/jobs',
  'ops:escalations': '/ops/escalations',
  'ops:outbox': '/ops/outbox',
  'ops:outbox-email': '/ops/outbox/:id',
  'ops:maintenance': '/ops/maintenance',
  's:dashboard': '/s/dashboard',
  's:profile': '/s/profile',
  's:complete-profile': '/s/complete-profile',
  's:dvla-reconsent': '/s/dvla-reconsent',
  's:self-initiate': '/s/self-initiate/:segmentId/:portalPath',
  's:case-portal': '/s/case-portal/:id/:section',
  's:case-portal-resume': '/s/case-portal/:id',
  's:cases': '/s/cases',
  'subject-case-detail': '/s/cases/:id',
  's:consents': '/s/consents',
  's:application-portal': '/s/application-portals/:id',
  's:lms-application': '/s/lms/applications/:id',
  's:lms-council-list': '/s/lms/council-list',
  's:lms-council': '/s/lms/:councilId',
  's:lms-licence-group': '/s/lms/:councilId/:licenceGroupId',
  's:lms-licence-sub-group': '/s/lms/:councilId/:licenceGroupId/:licenceSubGroupId',
} as const;

export type RouteName = keyof typeof PATHS;
export type RoutePattern = (typeof PATHS)[RouteName];

/** The `:name` parameters of a pattern, e.g. 'id' | 'appId' for '/definitions/:id/application_portals/:appId'. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<N extends RouteName> = Record<
  ParamNames<(typeof PATHS)[N]>,
  string | number
>;

/** The routes that take no parameters (navigation entries, redirects to a fixed page). */
export type PlainRouteName = {
  [N in RouteName]: [ParamNames<(typeof PATHS)[N]>] extends [never] ? N : never;
}[RouteName];

/** A route without parameters takes `{}` (or nothing); one with parameters needs each of them. */
type HrefArgs<N extends RouteName> = [ParamNames<(typeof PATHS)[N]>] extends [never]
  ? [params?: Record<string, never>, query?: QueryParams]
  : [params: RouteParams<N>, query?: QueryParams];

/**
 * The URL of a named route: `href('case-detail', {id: 4})`, `href('login', {}, {next: '/cases'})`.
 * Every link in the app goes through here, so a renamed path changes in one place and a
 * misspelt name or a missing parameter does not compile.
 */
export function href<N extends RouteName>(name: N, ...[params, query]: HrefArgs<N>): string {
  const values = Object.entries(params ?? {}).map(([key, value]) => [key, String(value)]);
  return `${generatePath(PATHS[name], Object.fromEntries(values))}${buildQuery(query)}`;
}

/** A `next` value is only followed when it stays on this site. */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return fallback;
  }
  return next;
}
