import { describe, expect, it } from 'vitest';
import { customerCreate, customerUpdate, opsCustomerUserInvite } from './customers.js';

describe('customer contracts', () => {
  it('creates with defaults: the first brand, no contact, every activity type', () => {
    expect(customerCreate.parse({ name: ' Acme ' })).toEqual({
      name: 'Acme',
      brand: 'kestrel',
      contact_name: '',
      contact_email: '',
      contact_phone: '',
      demo_mode: false,
      entitlements: [],
    });
  });

  it('keeps a contact, the phone as E.164, and the administrator', () => {
    const v = customerCreate.parse({
      name: 'Acme',
      brand: 'harrier',
      contact_name: 'Ann Smith',
      contact_email: 'ann@acme.test',
      contact_phone: '07911 123456',
      activity_types: [1, 2],
      admin: { first_name: 'Ann', last_name: 'Smith', email: 'ann@acme.test' },
    });
    expect(v).toMatchObject({
      brand: 'harrier',
      contact_email: 'ann@acme.test',
      contact_phone: '+447911123456',
      activity_types: [1, 2],
      admin: { email: 'ann@acme.test' },
    });
  });

  it('refuses an unknown brand, a bad phone, a bad email and a bad administrator', () => {
    const r = customerCreate.safeParse({
      name: 'Acme',
      brand: 'eagle',
      contact_email: 'nope',
      contact_phone: '12',
      admin: { first_name: '', last_name: 'S', email: 'x' },
    });
    expect(r.success).toBe(false);
    const paths = (r.error?.issues ?? []).map((i) => i.path.join('.')).sort();
    expect(paths).toEqual([
      'admin.email',
      'admin.first_name',
      'brand',
      'contact_email',
      'contact_phone',
    ]);
  });

  it('updates every field (PUT) and invites with the admin role off by default', () => {
    expect(customerUpdate.partial().parse({ contact_email: '' })).toEqual({ contact_email: '' });
    expect(
      opsCustomerUserInvite.parse({ first_name: 'Bo', last_name: 'Li', email: 'bo@x.test' }),
    ).toMatchObject({ administrator: false });
  });
});
