import { describe, expect, it } from 'vitest';
import { MESSAGES, maxCharacters, minCharacters } from './messages.js';

describe('messages', () => {
  it.each([
    [MESSAGES.required, 'Required'],
    [MESSAGES.invalidEmail, 'Invalid email'],
    [MESSAGES.toBeforeFrom, 'To date cannot be before from date.'],
    [MESSAGES.notesMaxLength, 'Max length 400'],
    [maxCharacters(60), 'Max 60 characters'],
    [minCharacters(12), 'Must be at least 12 characters'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
