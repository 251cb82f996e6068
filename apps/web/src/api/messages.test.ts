import { describe, expect, it } from 'vitest';
import {
  actionErrorMessage,
  actionSuccessMessage,
  backendErrorLines,
  failureMessage,
  MESSAGES_UI,
  throttledText,
} from './messages';

describe('message catalogue', () => {
  it('has the per-action error texts', () => {
    expect(actionErrorMessage('list', 'cases')).toBe('Error getting list of cases');
    expect(actionErrorMessage('retrieve', 'case')).toBe('Error retrieving case');
    expect(actionErrorMessage('create', 'case')).toBe('Error adding case');
    expect(actionErrorMessage('update', 'case')).toBe('Error updating case');
    expect(actionErrorMessage('partialUpdate', 'case')).toBe('Error updating case');
    expect(actionErrorMessage('delete', 'case')).toBe('Error deleting case');
  });

  it('has the success texts and the default', () => {
    expect(actionSuccessMessage('create', 'case')).toBe('Successfully added case');
    expect(actionSuccessMessage('update', 'case')).toBe('Successfully updated case');
    expect(actionSuccessMessage('delete', 'case')).toBe('Successfully deleted case');
    expect(actionSuccessMessage('create')).toBe('Action performed successfully');
  });

  it('has the fixed texts of the spec', () => {
    expect(MESSAGES_UI).toMatchObject({
      defaultError: 'An error has occurred',
      invalidLogin: 'Invalid login details',
      mfaRequired: 'MFA token required',
      permissionDenied: 'Permission denied',
      bootstrapError: 'Error in bootstrap promises',
      copied: 'Copied',
      copyError: 'Error copying',
      portalRetrieveError: 'Error retrieving portal',
      maintenance:
        'The site is currently down for maintenance. We will be back soon. Thank you for your patience.',
    });
  });

  it('shows back-end errors as field: messages lines', () => {
    expect(
      backendErrorLines({
        detail: 'Nope',
        surname: ['Required', 'Max 50 characters'],
        non_field_errors: ['Clash'],
      }),
    ).toEqual(['Nope.', 'Clash.', 'Surname: Required. Max 50 characters.']);
  });

  it('says a throttled sign-in in plain words with the wait', () => {
    expect(throttledText(230)).toBe('Too many sign-in attempts. Try again in 4 minutes.');
    expect(throttledText(60)).toBe('Too many sign-in attempts. Try again in 1 minute.');
    expect(throttledText(1)).toBe('Too many sign-in attempts. Try again in 1 second.');
    expect(throttledText(null)).toBe('Too many sign-in attempts. Try again in a few minutes.');
  });

  it('says field names and link errors in plain words', () => {
    expect(backendErrorLines({ token: ['Invalid or expired token'] })).toEqual([
      'This link is not valid or has expired. Ask for a new one.',
    ]);
    expect(
      backendErrorLines({
        date_of_birth: ['Required'],
        'requirements.0.config.workforce': ['Bad'],
      }),
    ).toEqual(['Date of birth: Required.', 'Requirements 1 config workforce: Bad.']);
  });

  it('keeps the head and the server lines on separate lines', () => {
    expect(
      failureMessage(
        { status: 400, data: { detail: 'A subject with open cases cannot be archived.' } },
        { action: 'update', name: 'subject', showBackendErrors: true },
      ),
    ).toBe('Error updating subject\nA subject with open cases cannot be archived.');
  });

  it('picks a status override, then the action text, then the default', () => {
    const failure = { status: 409, data: { detail: 'Conflict' } };
    expect(
      failureMessage(failure, {
        action: 'update',
        name: 'case',
        statusMessages: { 409: 'Already archived' },
      }),
    ).toBe('Already archived');
    expect(failureMessage(failure, { action: 'update', name: 'case' })).toBe('Error updating case');
    expect(failureMessage(failure)).toBe('An error has occurred');
    expect(
      failureMessage(
        { status: 400, data: { email: ['Invalid email'] } },
        { action: 'create', name: 'user', showBackendErrors: true },
      ),
    ).toBe('Error adding user\nEmail: Invalid email.');
  });

  it('shows nothing for not found', () => {
    expect(
      failureMessage(
        { status: 404, data: { detail: 'Not found.' } },
        { action: 'retrieve', name: 'case' },
      ),
    ).toBeNull();
  });
});
