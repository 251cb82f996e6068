import { describe, expect, it } from 'vitest';
import { actionErrorText, actionSuccessText, ERROR_TEXTS, fieldErrorLines } from './error-texts.js';

describe('error catalogue', () => {
  it.each([
    ['list', 'cases', 'Error getting list of cases'],
    ['retrieve', 'case', 'Error retrieving case'],
    ['add', 'case', 'Error adding case'],
    ['update', 'case', 'Error updating case'],
    ['delete', 'case', 'Error deleting case'],
  ] as const)('%s %s', (action, name, text) => {
    expect(actionErrorText(action, name)).toBe(text);
  });

  it('builds success texts and field lines', () => {
    expect(actionSuccessText('add', 'user')).toBe('Successfully added user');
    expect(actionSuccessText('update', 'user')).toBe('Successfully updated user');
    expect(actionSuccessText('delete', 'user')).toBe('Successfully deleted user');
    expect(fieldErrorLines({ email: ['Invalid email', 'Required'], detail: 'Nope' })).toEqual([
      'email: Invalid email Required',
      'detail: Nope',
    ]);
    expect(ERROR_TEXTS.invalidLogin).toBe('Invalid login details');
  });
});
