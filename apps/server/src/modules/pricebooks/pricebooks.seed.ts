import { ACTIVITY_KIND_CODES, isoDate, priceLevelsOf } from '@kestrel/domain';
import { subDays } from 'date-fns/subDays';
import { subYears } from 'date-fns/subYears';
import type { DemoSeedContext } from '../../platform/module.js';
import { pricebookPrices, pricebooks } from './pricebooks.table.js';

/**
 * A demo price per kind and level, in pence: the posted certificate £3.50 above the online one
 * (the default top-up, so the demo's top-ups stay as they were), the others a round figure.
 */
export function demoPrice(code: string, level: string | null, rise = 0): number {
  const dbs: Record<string, number> = {
    'dbs-basic': 2150,
    'dbs-standard': 2600,
    'dbs-enhanced': 4950,
  };
  const base = dbs[code] ?? 500 + (code.length % 7) * 250;
  return base + (level === 'paper-certificate' ? 350 : 0) + rise;
}

/**
 * Each demo customer has an active pricebook (from 30 days ago, open-ended) and an expired one
 * (the year before it), pricing every kind at every level.
 */
export async function seedPricebooksDemo(ctx: DemoSeedContext): Promise<void> {
  const today = ctx.clock.now();
  const start = subDays(today, 30);
  for (const customerId of [ctx.customers.acme, ctx.customers.northgate]) {
    const books = [
      {
        name: 'Prices last year',
        validFrom: isoDate(subYears(start, 1)),
        validTo: isoDate(subDays(start, 1)),
        rise: 0,
      },
      { name: 'Standard prices', validFrom: isoDate(start), validTo: null, rise: 100 },
    ];
    for (const b of books) {
      const [row] = await ctx.tx
        .insert(pricebooks)
        .values({
          customerId,
          name: b.name,
          validFrom: b.validFrom,
          validTo: b.validTo,
          createdByName: 'Kestrel operations',
        })
        .returning({ id: pricebooks.id });
      if (!row) throw new Error('insert returned nothing');
      await ctx.tx.insert(pricebookPrices).values(
        ACTIVITY_KIND_CODES.flatMap((code) =>
          priceLevelsOf(code).map((level) => ({
            customerId,
            pricebookId: row.id,
            activityType: code,
            level: level ?? '',
            amountPence: demoPrice(code, level, b.rise),
          })),
        ),
      );
    }
  }
}
