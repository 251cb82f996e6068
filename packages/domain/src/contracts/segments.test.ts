import { describe, expect, it } from 'vitest';
import { segmentCreate, segmentUpdate } from './segments.js';

describe('segment contracts', () => {
  it('needs a name only; blanks become empty, postcodes upper-cased, phones E.164', () => {
    expect(segmentCreate.parse({ name: ' North site ' })).toEqual({
      name: 'North site',
      employer_name: '',
      line_one: '',
      line_two: '',
      town: '',
      postcode: '',
      contact_name: '',
      contact_email: '',
      contact_phone: '',
    });
    const full = segmentCreate.parse({
      name: 'South',
      employer_name: 'Acme Care Ltd.',
      line_one: '1 High Street',
      line_two: '',
      town: 'Leeds',
      postcode: 'ls1 1aa',
      contact_name: 'Sam Smith',
      contact_email: 'sam@acme.test',
      contact_phone: '07911 123456',
    });
    expect(full.postcode).toBe('LS1 1AA');
    expect(full.contact_phone).toBe('+447911123456');
  });

  it('refuses a blank name, a bad postcode and email, each on its field', () => {
    const r = segmentUpdate.safeParse({
      name: ' ',
      employer_name: '',
      line_one: '',
      line_two: '',
      town: '',
      postcode: 'nope',
      contact_name: '',
      contact_email: 'not-an-email',
      contact_phone: '',
    });
    expect(r.success).toBe(false);
    const fields = (r.error?.issues ?? []).map((i) => i.path.join('.'));
    expect(fields.sort()).toEqual(['contact_email', 'name', 'postcode']);
  });
});
