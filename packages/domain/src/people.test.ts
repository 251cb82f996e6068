import { describe, expect, it } from 'vitest';
import { GENDER_OPTIONS, GENDERS, TITLES, titlesForGender } from './people.js';

describe('titles and genders', () => {
  it('offers male and female', () => {
    expect(GENDERS).toEqual(['male', 'female']);
    expect(GENDER_OPTIONS.map((g) => g.label)).toEqual(['Male', 'Female']);
  });

  it('filters titles by gender', () => {
    expect(titlesForGender('male')).toEqual(['Mr', 'Mx', 'Dr', 'Professor', 'Rev', 'Sir', 'Lord']);
    expect(titlesForGender('female')).toEqual([
      'Miss',
      'Mrs',
      'Ms',
      'Mx',
      'Dr',
      'Professor',
      'Rev',
      'Dame',
      'Lady',
    ]);
    expect(titlesForGender(null)).toBe(TITLES);
    expect(titlesForGender('')).toBe(TITLES);
  });
});
