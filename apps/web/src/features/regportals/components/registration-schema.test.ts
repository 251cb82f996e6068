import { describe, expect, it } from 'vitest';
import { registrationSchema } from './registration-schema';

const person = { first_name: 'Rita', last_name: 'Reed', email: 'rita@example.test' };
const messages = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe("the registration's rules per the portal's ask modes", () => {
  it('requires what is required', () => {
    const schema = registrationSchema({ ask_dob: 'required', ask_phone: 'required' });
    expect(messages(schema.safeParse({ ...person, dob: '', phone: '' }))).toEqual({
      dob: 'Required',
      phone: 'Required',
    });
    expect(schema.parse({ ...person, dob: '1990-04-30', phone: '07911 123456' })).toEqual({
      ...person,
      dob: '1990-04-30',
      phone: '+447911123456',
    });
  });

  it('leaves out a blank optional detail and anything not asked', () => {
    const schema = registrationSchema({ ask_dob: 'hidden', ask_phone: 'optional' });
    expect(schema.parse({ ...person, dob: '1990-04-30', phone: ' ' })).toEqual({
      ...person,
      dob: undefined,
      phone: undefined,
    });
    expect(messages(schema.safeParse({ ...person, dob: '', phone: '12' }))).toEqual({
      phone: 'Invalid number',
    });
  });

  it("checks the names and the email with the spec's text rules", () => {
    const schema = registrationSchema({ ask_dob: 'hidden', ask_phone: 'hidden' });
    expect(
      messages(schema.safeParse({ first_name: 'R2', last_name: '', email: 'rita@example' })),
    ).toEqual({
      first_name: 'Contains invalid characters',
      last_name: 'Required',
      email: 'Invalid email',
    });
  });
});
