import { describe, expect, it } from 'vitest';
import { GENDER_OPTIONS, GENDERS, nameForDbs, TITLES, titlesForGender } from './people.js';

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

describe('nameForDbs', () => {
  it('is null when no part has a (for DBS) value', () => {
    expect(nameForDbs({ forename: 'Zoë', surname: 'Hart' })).toBeNull();
  });
  it('takes each part’s (for DBS) value where there is one', () => {
    expect(
      nameForDbs({ forename: 'Zoë', middlename: 'Ann', surname: 'Hart', forename_dbs: 'Zoe' }),
    ).toBe('Zoe Ann Hart');
  });
});
