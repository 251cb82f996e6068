import { describe, expect, it } from 'vitest';
import { otherNameSchema } from './case-other-name.js';
import { issuesByField } from './first-message.js';

const name = { forename: 'Ann', surname: 'Smith', from_date: '2000-01-01', to_date: '2010-05-01' };
const errors = (value: unknown) => {
  const r = otherNameSchema.safeParse(value);
  return r.success ? {} : issuesByField(r.error);
};

describe('otherNameSchema', () => {
  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['valid', {}, {}],
    ['same day', { to_date: '2000-01-01' }, {}],
    [
      'to before from',
      { to_date: '1999-12-31' },
      { to_date: ['To date cannot be before from date.'] },
    ],
    [
      'dates required',
      { from_date: '', to_date: undefined },
      {
        from_date: ['Required'],
        to_date: ['Required'],
      },
    ],
    ['DBS alternative', { surname: "D'Ávila" }, { surname_dbs: ['Required'] }],
  ])('%s', (_name, change, expected) => {
    expect(errors({ ...name, ...change })).toEqual(expected);
  });
});
