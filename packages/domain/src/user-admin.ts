import { permissionWords } from './permission-words.js';
import { hasPermission } from './permissions.js';

/** A staff member's status (issue 30): invited until the account is claimed. */
export const USER_STATUSES = ['invited', 'active', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const USER_STATUS_WORDS: Readonly<Record<UserStatus, string>> = {
  invited: 'Invited',
  active: 'Active',
  deactivated: 'Deactivated',
};

/**
 * Deactivated wins; else invited while the account has never been claimed (no password set and
 * never signed in, e.g. through the organisation's identity provider); else active.
 */
export function userStatusOf(u: { isActive: boolean; claimed: boolean }): UserStatus {
  if (!u.isActive) return 'deactivated';
  return u.claimed ? 'active' : 'invited';
}

/** The permission that makes a staff member an administrator: managing the staff. */
export const ADMINISTRATOR_PERMISSION = 'users.change_productuser';

/** True when the permissions of a user's roles make them an administrator. */
export function isAdministrator(permissions: readonly string[]): boolean {
  return hasPermission(permissions, ADMINISTRATOR_PERMISSION);
}

/** Built-in role names (the templates every customer starts with): read-only, not reusable. */
export const BUILT_IN_ROLE_NAMES = ['admin', 'viewer', 'ops'] as const;

export function isBuiltInRole(role: { customerId: number | null; name: string }): boolean {
  return (
    role.customerId === null ||
    (BUILT_IN_ROLE_NAMES as readonly string[]).includes(role.name.trim().toLowerCase())
  );
}

/**
 * The refusals of the users and roles screens, written once (400 bodies and the web), with the
 * hints the screens give beside what cannot be given (decision 028: no one gives more than they
 * hold).
 */
export const USER_ADMIN_MESSAGES = {
  selfDeactivate: 'You cannot deactivate yourself.',
  selfDemote: 'You cannot remove your own administrator permissions.',
  lastAdministrator:
    'The organisation must keep at least one active administrator: this change would leave none.',
  notInvited: 'This user has already accepted the invitation.',
  deactivatedInvitation: 'This user is deactivated: reactivate them first.',
  alreadyActive: 'This user is already active.',
  alreadyDeactivated: 'This user is already deactivated.',
  builtInRole: 'Built-in roles cannot be changed or deleted.',
  builtInRoleName: 'This name belongs to a built-in role.',
  roleNameTaken: 'A role with this name already exists.',
  unknownPermission: (p: string) => `Unknown permission: ${p}.`,
  /** A role whose permissions are not all the giver's, named in the order asked. */
  grantRole: (names: readonly string[]) =>
    `You cannot give a role with permissions you do not hold yourself: ${names.join(', ')}.`,
  /** Permissions the giver lacks, in words, in the order asked. */
  grantPermissions: (permissions: readonly string[]) =>
    `You cannot give a role a permission you do not hold yourself: ${permissions.map(permissionWords).join(', ')}.`,
  /** The user form's hint when some roles cannot be picked. */
  grantRoleHint: 'You can give only roles whose permissions you hold yourself',
  /** The role dialog's hint when some permissions cannot be ticked. */
  grantPermissionHint: 'You can give a role only the permissions you hold yourself.',
  roleInUse: (users: number) =>
    `This role is held by ${users} ${users === 1 ? 'user' : 'users'}: take it from them before deleting it.`,
} as const;
