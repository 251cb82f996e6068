import { eq } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import { customers } from './customers.table.js';

/** The demo organisations' addresses and contacts (shown on /customer-account). */
export async function seedCustomerAccountDemo(ctx: DemoSeedContext): Promise<void> {
  await ctx.tx
    .update(customers)
    .set({
      lineOne: 'Acme House',
      lineTwo: '1 Care Way',
      town: 'Manchester',
      postcode: 'M1 1AE',
      contactName: 'Ada Admin',
      contactEmail: 'office@acme-care.test',
      contactPhone: '+447911123400',
    })
    .where(eq(customers.id, ctx.customers.acme));
  await ctx.tx
    .update(customers)
    .set({
      lineOne: 'Town Hall',
      lineTwo: 'Market Square',
      town: 'Northgate',
      postcode: 'NG1 1AA',
      contactName: 'Licensing team',
      contactEmail: 'licensing@northgate.test',
      contactPhone: '+447911123401',
    })
    .where(eq(customers.id, ctx.customers.northgate));
}
