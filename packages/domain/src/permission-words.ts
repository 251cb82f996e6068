import { PERMISSIONS, type Permission, ROLE_TEMPLATES } from './permissions.js';

/** Each permission string in words, as the role screens show it (spec point 6's strings). */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  'cases.view_case': 'View cases',
  'cases.add_case': 'Add cases',
  'cases.change_case': 'Change cases',
  'cases.archive': 'Archive cases',
  'cases.view_caseactivity': 'View case activities',
  'cases.change_caseactivity': 'Change case activities',
  'cases.countersign_casedbsdetails': 'Countersign DBS applications',
  'subjects.view_subject': 'View subjects',
  'subjects.add_subject': 'Add subjects',
  'subjects.change_subject': 'Change subjects',
  'subjects.archive': 'Archive subjects',
  'processes.view_process': 'View processes',
  'processes.add_process': 'Add processes',
  'processes.change_process': 'Change processes',
  'processes.delete_process': 'Delete processes',
  'cycles.view_cycle': 'View cycles',
  'cycles.add_cycle': 'Add cycles',
  'cycles.change_cycle': 'Change cycles',
  'subscriptions.view_subscription': 'View subscriptions',
  'subscriptions.add_subscription': 'Add subscriptions',
  'subscriptions.change_subscription': 'Change subscriptions',
  'segments.view_segment': 'View segments',
  'segments.add_segment': 'Add segments',
  'segments.change_segment': 'Change segments',
  'segments.delete_segment': 'Delete segments',
  'registration_portals.view_registrationportal': 'View registration portals',
  'registration_portals.add_registrationportal': 'Add registration portals',
  'registration_portals.change_registrationportal': 'Change registration portals',
  'users.view_productuser': 'View users',
  'users.add_productuser': 'Add users',
  'users.change_productuser': 'Change users',
  'users.delete_productuser': 'Delete users',
  'roles.view_role': 'View roles',
  'roles.add_role': 'Add roles',
  'roles.change_role': 'Change roles',
  'roles.delete_role': 'Delete roles',
  'customers.view_customer': 'View the organisation',
  'customers.change_customer': 'Change the organisation',
  'customers.view_all_customers': 'View every customer',
  'customers.add_customer': 'Add customers',
  'customers.ops_access': 'Use the operations console',
  'payments.view_payment': 'View payments',
  'payments.add_payment': 'Add payments',
  'payments.change_payment': 'Change payment settings',
  'payments.delete_payment': 'Remove payment methods',
  'payments.view_all_portal_payments': "View every customer's portal payments",
  'payments.view_all_product_payments': "View every customer's product payments",
  'audit.view_auditaction': 'View the audit trail',
  'flags.view_flag': 'View flags',
  'flags.change_flag': 'Change flags',
  'pricebooks.view_pricebook': 'View pricebooks',
  'pricebooks.add_pricebook': 'Add pricebooks',
  'pricebooks.change_pricebook': 'Change pricebooks',
  'imports.view_import': 'View imports',
  'imports.add_import': 'Add imports',
  'lms_definitions.view_definition': 'View licence definitions',
  'lms_definitions.add_definition': 'Add licence definitions',
  'lms_definitions.change_definition': 'Change licence definitions',
  'lms_licences.view_licence': 'View licences',
  'lms_licences.add_licence': 'Add licences',
  'lms_licences.change_licence': 'Change licences',
  'trust_to_ride.view_trusttoride': 'View Trust to Ride',
  'trust_to_ride.change_trusttoride': 'Change Trust to Ride',
  'maintenance.change_maintenancewindow': 'Schedule maintenance windows',
  'outbox.view_email': 'View sent emails',
};

/** The module part of each permission string (`cases` of `cases.view_case`) in words. */
export const PERMISSION_MODULE_WORDS: Readonly<Record<string, string>> = {
  cases: 'Cases',
  subjects: 'Subjects',
  processes: 'Processes',
  cycles: 'Cycles',
  subscriptions: 'Subscriptions',
  segments: 'Segments',
  registration_portals: 'Registration portals',
  users: 'Users',
  roles: 'Roles',
  customers: 'Organisation',
  payments: 'Payments',
  audit: 'Audit trail',
  flags: 'Flags',
  pricebooks: 'Pricebooks',
  imports: 'Imports',
  lms_definitions: 'Licence definitions',
  lms_licences: 'Licences',
  trust_to_ride: 'Trust to Ride',
  maintenance: 'Maintenance',
  outbox: 'Emails',
};

/** The words of a permission string; an unknown string reads as itself. */
export function permissionWords(permission: string): string {
  return (PERMISSION_WORDS as Readonly<Record<string, string>>)[permission] ?? permission;
}

/** The permissions a customer's role may hold: the administrator's, never the ops-only ones. */
export const CUSTOMER_PERMISSIONS: readonly Permission[] = ROLE_TEMPLATES.admin;

export interface PermissionGroup {
  module: string;
  label: string;
  permissions: { permission: Permission; words: string }[];
}

/** `permissions` grouped by module, in the order of PERMISSIONS, each with its words. */
export function permissionGroups(
  permissions: readonly Permission[] = CUSTOMER_PERMISSIONS,
): PermissionGroup[] {
  const groups: PermissionGroup[] = [];
  for (const p of PERMISSIONS) {
    if (!permissions.includes(p)) continue;
    const module = p.slice(0, p.indexOf('.'));
    let group = groups.find((g) => g.module === module);
    if (!group) {
      group = { module, label: PERMISSION_MODULE_WORDS[module] ?? module, permissions: [] };
      groups.push(group);
    }
    group.permissions.push({ permission: p, words: PERMISSION_WORDS[p] });
  }
  return groups;
}
