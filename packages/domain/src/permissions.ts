/**
 * Permission strings of the form `module.action_model` (spec point 6). A string-literal union,
 * so a misspelt permission does not compile; `hasPermission` runs on the server and the client.
 */
export const PERMISSIONS = [
  'cases.view_case',
  'cases.add_case',
  'cases.change_case',
  'cases.archive',
  'cases.view_caseactivity',
  'cases.change_caseactivity',
  /** Countersigning a DBS application (a registered countersignatory), apart from verifying. */
  'cases.countersign_casedbsdetails',
  'subjects.view_subject',
  'subjects.add_subject',
  'subjects.change_subject',
  'subjects.archive',
  'processes.view_process',
  'processes.add_process',
  'processes.change_process',
  'processes.delete_process',
  'cycles.view_cycle',
  'cycles.add_cycle',
  'cycles.change_cycle',
  'subscriptions.view_subscription',
  'subscriptions.add_subscription',
  'subscriptions.change_subscription',
  'segments.view_segment',
  'segments.add_segment',
  'segments.change_segment',
  'segments.delete_segment',
  'registration_portals.view_registrationportal',
  'registration_portals.add_registrationportal',
  'registration_portals.change_registrationportal',
  'users.view_productuser',
  'users.add_productuser',
  'users.change_productuser',
  'users.delete_productuser',
  'roles.view_role',
  /** Custom roles of a customer (issue 30): built-in roles stay read-only. */
  'roles.add_role',
  'roles.change_role',
  'roles.delete_role',
  'customers.view_customer',
  'customers.change_customer',
  'customers.view_all_customers',
  'customers.add_customer',
  'customers.ops_access',
  'payments.view_payment',
  'payments.add_payment',
  /** Setting a customer's default card and its billing email (issue 30). */
  'payments.change_payment',
  'payments.delete_payment',
  'payments.view_all_portal_payments',
  'payments.view_all_product_payments',
  'audit.view_auditaction',
  'flags.view_flag',
  'flags.change_flag',
  'pricebooks.view_pricebook',
  'pricebooks.add_pricebook',
  'pricebooks.change_pricebook',
  'imports.view_import',
  'imports.add_import',
  'lms_definitions.view_definition',
  'lms_definitions.add_definition',
  'lms_definitions.change_definition',
  'lms_licences.view_licence',
  'lms_licences.add_licence',
  'lms_licences.change_licence',
  'trust_to_ride.view_trusttoride',
  'trust_to_ride.change_trusttoride',
  'maintenance.change_maintenancewindow',
  'outbox.view_email',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ENTITLEMENTS = ['regportals', 'cycles', 'subject_dedup'] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** True when every required permission is held. */
export function hasPermission(
  held: readonly string[],
  required: Permission | readonly Permission[],
): boolean {
  const list: readonly Permission[] = typeof required === 'string' ? [required] : required;
  return list.every((p) => held.includes(p));
}

/** True when every required entitlement is held. */
export function hasEntitlement(
  held: readonly string[],
  required: Entitlement | readonly Entitlement[],
): boolean {
  const list: readonly Entitlement[] = typeof required === 'string' ? [required] : required;
  return list.every((e) => held.includes(e));
}

/** Built-in role templates. Ops staff hold every permission; customer roles never hold ops ones. */
const OPS_ONLY: readonly Permission[] = [
  'customers.view_all_customers',
  'customers.add_customer',
  'customers.ops_access',
  'payments.view_all_portal_payments',
  'payments.view_all_product_payments',
  'pricebooks.view_pricebook',
  'pricebooks.add_pricebook',
  'pricebooks.change_pricebook',
  'imports.view_import',
  'imports.add_import',
  'trust_to_ride.view_trusttoride',
  'trust_to_ride.change_trusttoride',
  'maintenance.change_maintenancewindow',
  'outbox.view_email',
];

export const ROLE_TEMPLATES = {
  ops: [...PERMISSIONS],
  admin: PERMISSIONS.filter((p) => !OPS_ONLY.includes(p)),
  viewer: [
    'cases.view_case',
    'cases.view_caseactivity',
    'subjects.view_subject',
    'processes.view_process',
    'flags.view_flag',
    'segments.view_segment',
  ],
} as const satisfies Record<string, readonly Permission[]>;
export type RoleName = keyof typeof ROLE_TEMPLATES;
