import { eq } from 'drizzle-orm';
import { createCustomer, createProductUser, createRole } from '../../db/factories.js';
import { DEMO_PASSWORD } from '../../db/seed.js';
import type { DemoSeedContext } from '../../platform/module.js';
import { customers } from '../customers/customers.table.js';

/**
 * The ops customer screens' demo: the seed's two customers get a brand and a contact, and three
 * more customers (one on the second brand, one inactive) with their staff, one deactivated.
 */
export async function seedOpsCustomersDemo({ tx }: DemoSeedContext): Promise<void> {
  await tx
    .update(customers)
    .set({
      contactName: 'Alex Admin',
      contactEmail: 'hr@acme.test',
      contactPhone: '+441614960000',
    })
    .where(eq(customers.name, 'Acme Care Ltd'));
  await tx
    .update(customers)
    .set({ brand: 'harrier', contactName: 'Nadia North', contactEmail: 'licensing@northgate.test' })
    .where(eq(customers.name, 'Northgate Council'));
  const people = [
    {
      name: 'Harbour Homes Group',
      brand: 'harrier',
      contact: ['Hana Harbour', 'people@harbour.test', '+441134960100'],
      staff: [
        ['hana@harbour.test', 'Hana', 'Harbour', 'admin', true],
        ['ravi@harbour.test', 'Ravi', 'Patel', 'viewer', true],
        ['lee@harbour.test', 'Lee', 'Morgan', 'viewer', false],
      ],
      active: true,
    },
    {
      name: 'Riverside Cycles Co-op',
      brand: 'kestrel',
      contact: ['Rosa Reed', 'rosa@riverside.test', ''],
      staff: [['rosa@riverside.test', 'Rosa', 'Reed', 'admin', true]],
      active: true,
    },
    {
      name: 'Pennine Transport',
      brand: 'kestrel',
      contact: ['Paul Pike', 'paul@pennine.test', '+441614960200'],
      staff: [['paul@pennine.test', 'Paul', 'Pike', 'admin', true]],
      active: false,
    },
  ] as const;
  for (const c of people) {
    const row = await createCustomer(tx, { name: c.name });
    await tx
      .update(customers)
      .set({
        brand: c.brand,
        contactName: c.contact[0],
        contactEmail: c.contact[1],
        contactPhone: c.contact[2],
        isActive: c.active,
      })
      .where(eq(customers.id, row.id));
    const roleIds = {
      admin: (await createRole(tx, { customerId: row.id, name: 'admin', permissions: 'admin' })).id,
      viewer: (await createRole(tx, { customerId: row.id, name: 'viewer', permissions: 'viewer' }))
        .id,
    };
    for (const [email, first, last, role, active] of c.staff) {
      await createProductUser(tx, {
        customerId: row.id,
        username: email,
        firstName: first,
        lastName: last,
        password: DEMO_PASSWORD,
        roles: [roleIds[role]],
        isActive: active,
      });
    }
  }
}
