import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_PERMISSIONS,
  PERMISSION_MODULE_WORDS,
  PERMISSION_WORDS,
  permissionGroups,
  permissionWords,
} from './permission-words.js';
import { PERMISSIONS } from './permissions.js';

describe('permission words', () => {
  it('gives every permission string its own words', () => {
    for (const p of PERMISSIONS) expect(PERMISSION_WORDS[p]).toMatch(/^[A-Z]/);
    expect(new Set(Object.values(PERMISSION_WORDS)).size).toBe(PERMISSIONS.length);
    expect(permissionWords('cases.view_case')).toBe('View cases');
    expect(permissionWords('users.add_productuser')).toBe('Add users');
    expect(permissionWords('nope.nothing')).toBe('nope.nothing');
  });

  it('names every module', () => {
    for (const p of PERMISSIONS)
      expect(PERMISSION_MODULE_WORDS[p.split('.')[0] ?? '']).toBeTruthy();
  });

  it("groups a customer's permissions by module, in order, without the ops-only ones", () => {
    const groups = permissionGroups();
    expect(groups[0]).toMatchObject({ module: 'cases', label: 'Cases' });
    expect(groups[0]?.permissions[0]).toEqual({
      permission: 'cases.view_case',
      words: 'View cases',
    });
    expect(groups.map((g) => g.module)).not.toContain('pricebooks');
    expect(groups.flatMap((g) => g.permissions).length).toBe(CUSTOMER_PERMISSIONS.length);
    expect(CUSTOMER_PERMISSIONS).not.toContain('customers.ops_access');
    expect(CUSTOMER_PERMISSIONS).toContain('roles.add_role');
  });

  it('groups any list given, a module without words reading as itself', () => {
    expect(permissionGroups(['flags.view_flag', 'outbox.view_email'])).toEqual([
      {
        module: 'flags',
        label: 'Flags',
        permissions: [{ permission: 'flags.view_flag', words: 'View flags' }],
      },
      {
        module: 'outbox',
        label: 'Emails',
        permissions: [{ permission: 'outbox.view_email', words: 'View sent emails' }],
      },
    ]);
  });
});
