import { describe, expect, it } from 'vitest';
import {
  activityConfigSchema,
  EMPLOYER_NAME_SOURCES,
  WORKFORCE_OPTIONS,
  workforceIncludesAdult,
} from './activity-config.js';
import { issuesByField } from './first-message.js';

function errors(value: unknown) {
  const r = activityConfigSchema.safeParse(value);
  return r.success ? {} : issuesByField(r.error);
}

describe('coded lists', () => {
  it('has the four workforce codes', () => {
    expect(WORKFORCE_OPTIONS.map((o) => `${o.value} ${o.label}`)).toEqual([
      'O Other',
      'C Child',
      'A Adult',
      'CA Child and Adult',
    ]);
    expect(EMPLOYER_NAME_SOURCES[0].label).toBe('Segment employer name');
  });

  it.each([
    ['A', true],
    ['CA', true],
    ['C', false],
    ['O', false],
    [null, false],
  ])('workforce %s includes adult: %s', (workforce, expected) => {
    expect(workforceIncludesAdult(workforce)).toBe(expected);
  });
});

describe('activityConfigSchema', () => {
  it('accepts an empty config', () => {
    expect(errors({})).toEqual({});
  });

  it('accepts a full enhanced config', () => {
    const config = {
      purpose: 'employment',
      employment_sector: 'education',
      employer_name_source: 'custom',
      employer_name: 'Acme Ltd',
      position: 'Teacher',
      online_cert_email: 'hr@acme.co.uk',
      paper_cert: true,
      paper_cert_name: 'HR Team',
      paper_cert_line_one: '1 High Street',
      paper_cert_town: 'Leeds',
      paper_cert_postcode: 'ls1 1aa',
      workforce: 'CA',
      volunteer: false,
      adult_barred_list: true,
      child_barred_list: true,
      working_at_home_address: false,
      collectors: ['Branch 1'],
      include_cpc: true,
      include_tacho: null,
    };
    const parsed = activityConfigSchema.parse(config);
    expect(parsed.paper_cert_postcode).toBe('LS1 1AA');
  });

  it('requires the other purpose, the custom employer name and the paper address', () => {
    expect(errors({ purpose: 'other', employer_name_source: 'custom', paper_cert: true })).toEqual({
      other_purpose: ['Required'],
      employer_name: ['Required'],
      paper_cert_name: ['Required'],
      paper_cert_line_one: ['Required'],
      paper_cert_town: ['Required'],
      paper_cert_postcode: ['Required'],
    });
  });

  it('rejects unknown codes and bad emails', () => {
    expect(Object.keys(errors({ workforce: 'X', online_cert_email: 'nope' }))).toEqual([
      'online_cert_email',
      'workforce',
    ]);
  });
});
