import { describe, expect, it } from 'vitest';
import {
  ENTITLEMENTS,
  hasEntitlement,
  hasPermission,
  isPermission,
  PERMISSIONS,
  ROLE_TEMPLATES,
} from './permissions.js';

describe('permissions', () => {
  it('use the module.action_model form', () => {
    for (const p of PERMISSIONS) expect(p).toMatch(/^[a-z_]+\.[a-z_]+$/);
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('recognises permission strings', () => {
    expect(isPermission('cases.view_case')).toBe(true);
    expect(isPermission('cases.view_cases')).toBe(false);
  });

  it.each([
    [['cases.view_case', 'cases.add_case'], 'cases.add_case', true],
    [['cases.view_case'], 'cases.add_case', false],
    [['cases.view_case', 'cases.add_case'], ['cases.view_case', 'cases.add_case'], true],
    [['cases.view_case'], ['cases.view_case', 'cases.add_case'], false],
    [[], [], true],
  ] as const)('%j holds %j: %s', (held, required, expected) => {
    expect(hasPermission(held, required)).toBe(expected);
  });

  it('checks entitlements', () => {
    expect(ENTITLEMENTS).toEqual(['regportals', 'cycles', 'subject_dedup']);
    expect(hasEntitlement(['cycles'], 'cycles')).toBe(true);
    expect(hasEntitlement(['cycles'], ['cycles', 'regportals'])).toBe(false);
  });

  it('keeps ops-only permissions out of customer roles', () => {
    expect(ROLE_TEMPLATES.ops).toHaveLength(PERMISSIONS.length);
    expect(ROLE_TEMPLATES.admin).not.toContain('customers.ops_access');
    expect(ROLE_TEMPLATES.admin).toContain('cases.add_case');
    expect(ROLE_TEMPLATES.viewer).not.toContain('cases.add_case');
  });
});
