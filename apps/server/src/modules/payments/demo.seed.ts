import { and, asc, eq, isNotNull, notInArray } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import { caseActivities } from '../activities/activities.table.js';
import { seedPaymentMethodsDemo } from './payment-methods.seed.js';
import { paymentIntents, payments } from './payments.table.js';
import { paymentRefunds, productPayments } from './product-payments.table.js';

const DAY = 86_400_000;

/**
 * The ops payments screens' demo rows: three paid portal top-ups for Acme's activities (one
 * partly refunded), one awaiting, and product payments for Acme and Northgate (one failed).
 */
export async function seedPaymentsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const now = clock.now().getTime();
  const acme = ctx.customers.acme;
  // an intent of another purpose (a registration's fee) has no activity: a NULL in `not in`
  // would leave no activity at all
  const taken = tx
    .select({ id: paymentIntents.caseActivityId })
    .from(paymentIntents)
    .where(and(eq(paymentIntents.customerId, acme), isNotNull(paymentIntents.caseActivityId)));
  const activities = await tx
    .select({ id: caseActivities.id, caseId: caseActivities.caseId })
    .from(caseActivities)
    .where(and(eq(caseActivities.customerId, acme), notInArray(caseActivities.id, taken)))
    .orderBy(asc(caseActivities.id))
    .limit(4);
  const plan = [
    { amount: 350, paid: true, days: 6, reason: 'Paper certificate by post' },
    { amount: 1250, paid: true, days: 4, reason: 'Fast-track processing' },
    { amount: 350, paid: true, days: 2, reason: 'Paper certificate by post' },
    { amount: 350, paid: false, days: 1, reason: 'Paper certificate by post' },
  ];
  for (const [i, a] of activities.entries()) {
    const p = plan[i];
    if (!p) break;
    const at = new Date(now - p.days * DAY);
    const [intent] = await tx
      .insert(paymentIntents)
      .values({
        customerId: acme,
        publicId: `pit_demo_payment_${i + 1}`,
        caseId: a.caseId,
        caseActivityId: a.id,
        amountPence: p.amount,
        reason: p.reason,
        provider: 'simulator',
        providerIntentId: `pi_sim_demo_${i + 1}`,
        clientSecret: `pi_sim_demo_${i + 1}_secret_demo`,
        status: p.paid ? 'succeeded' : 'requires_payment_method',
        outcome: p.paid ? 'paid' : 'awaiting',
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!intent || !p.paid) continue;
    await tx.insert(payments).values({
      customerId: acme,
      paymentIntentId: intent.id,
      caseId: a.caseId,
      caseActivityId: a.id,
      amountPence: p.amount,
      status: 'succeeded',
      providerEventId: `evt_sim_demo_${i + 1}`,
      createdAt: new Date(at.getTime() + 5 * 60_000),
    });
    if (i === 1) {
      await tx.insert(paymentRefunds).values({
        customerId: acme,
        source: 'portal',
        paymentId: intent.id,
        amountPence: 500,
        idempotencyKey: 'demo-refund-1',
        status: 'succeeded',
        providerRefundId: 're_sim_demo_1',
        createdById: ctx.users['ops@kestrel.test']?.id ?? null,
        createdByName: 'Olivia Ops',
        createdAt: new Date(at.getTime() + DAY),
        updatedAt: new Date(at.getTime() + DAY),
      });
    }
  }
  const product = [
    { customerId: acme, amount: 48_000, status: 'succeeded', days: 20, what: 'Checks for October' },
    { customerId: acme, amount: 36_500, status: 'succeeded', days: 3, what: 'Checks for November' },
    {
      customerId: ctx.customers.northgate,
      amount: 12_000,
      status: 'succeeded',
      days: 9,
      what: 'Enhanced DBS checks (10)',
    },
    {
      customerId: ctx.customers.northgate,
      amount: 12_000,
      status: 'failed',
      days: 10,
      what: 'Enhanced DBS checks (10)',
    },
  ];
  for (const [i, p] of product.entries()) {
    const at = new Date(now - p.days * DAY);
    await tx.insert(productPayments).values({
      customerId: p.customerId,
      description: p.what,
      amountPence: p.amount,
      provider: 'simulator',
      providerPaymentId: `pi_sim_product_demo_${i + 1}`,
      status: p.status,
      createdAt: at,
      updatedAt: at,
    });
  }
  // saved cards, billing email and case charges (issue 30)
  await seedPaymentMethodsDemo(ctx);
}
