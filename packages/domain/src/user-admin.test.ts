import { describe, expect, it } from 'vitest';
import { roleCreate } from './contracts/roles.js';
import { userListQuery } from './contracts/users.js';
import {
  isAdministrator,
  isBuiltInRole,
  USER_ADMIN_MESSAGES,
  USER_STATUS_WORDS,
  USER_STATUSES,
  userStatusOf,
} from './user-admin.js';

describe('user administration rules', () => {
  it('a deactivated user is deactivated; else invited until claimed', () => {
    expect(userStatusOf({ isActive: false, claimed: true })).toBe('deactivated');
    expect(userStatusOf({ isActive: false, claimed: false })).toBe('deactivated');
    expect(userStatusOf({ isActive: true, claimed: false })).toBe('invited');
    expect(userStatusOf({ isActive: true, claimed: true })).toBe('active');
    expect(USER_STATUSES.map((s) => USER_STATUS_WORDS[s])).toEqual([
      'Invited',
      'Active',
      'Deactivated',
    ]);
  });

  it('an administrator is who may change users', () => {
    expect(isAdministrator(['users.view_productuser', 'users.change_productuser'])).toBe(true);
    expect(isAdministrator(['users.view_productuser'])).toBe(false);
  });

  it('built-in roles: no customer, or a template name', () => {
    expect(isBuiltInRole({ customerId: null, name: 'Anything' })).toBe(true);
    expect(isBuiltInRole({ customerId: 3, name: ' Admin ' })).toBe(true);
    expect(isBuiltInRole({ customerId: 3, name: 'Site manager' })).toBe(false);
  });

  it('writes its refusals once', () => {
    expect(USER_ADMIN_MESSAGES.roleInUse(1)).toBe(
      'This role is held by 1 user: take it from them before deleting it.',
    );
    expect(USER_ADMIN_MESSAGES.roleInUse(3)).toBe(
      'This role is held by 3 users: take it from them before deleting it.',
    );
    expect(USER_ADMIN_MESSAGES.unknownPermission('x.y')).toBe('Unknown permission: x.y.');
  });

  it('refuses a grant above what the giver holds: roles by name, permissions in words', () => {
    expect(USER_ADMIN_MESSAGES.grantRole(['viewer', 'Senior manager'])).toBe(
      'You cannot give a role with permissions you do not hold yourself: viewer, Senior manager.',
    );
    expect(USER_ADMIN_MESSAGES.grantPermissions(['cases.view_case', 'users.add_productuser'])).toBe(
      'You cannot give a role a permission you do not hold yourself: View cases, Add users.',
    );
  });
});

describe('role and user contracts', () => {
  it('a role holds known customer permissions, once each, sorted', () => {
    expect(
      roleCreate.parse({
        name: ' Site manager ',
        permissions: ['cases.view_case', 'cases.add_case', 'cases.view_case'],
      }),
    ).toEqual({ name: 'Site manager', permissions: ['cases.add_case', 'cases.view_case'] });
    const bad = roleCreate.safeParse({
      name: '',
      permissions: ['cases.fly', 'customers.ops_access'],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message);
    expect(messages).toEqual([
      'Required',
      'Unknown permission: cases.fly.',
      'Unknown permission: customers.ops_access.',
    ]);
  });

  it('the list filters by status and role', () => {
    expect(userListQuery.parse({ status: 'invited', role: '4' })).toEqual({
      status: 'invited',
      role: 4,
    });
    expect(userListQuery.safeParse({ status: 'gone' }).success).toBe(false);
  });
});
