import { and, asc, eq } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import { cases } from '../cases/cases.table.js';
import { pricebooks } from '../pricebooks/pricebooks.table.js';
import { processes } from '../processes/processes.table.js';
import { customerPaymentMethods, customerPaymentSettings } from './payment-methods.table.js';
import { productPayments } from './product-payments.table.js';

const DAY = 86_400_000;

/**
 * The payment settings' demo (issue 30): Acme has a billing email and two saved cards (the Visa
 * ending 4242 its default; the 9995 one declines charges), and its case charges: one paid, one
 * declined then paid on retry with the default card. Northgate's pricebooks say 'invoiced' (its
 * cases are not charged per case). The cards are the simulator's (`pm_sim_<last4>_...`: they
 * charge as their test numbers do, after a restart too).
 */
export async function seedPaymentMethodsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const now = clock.now().getTime();
  const acme = ctx.customers.acme;
  const at = (days: number) => new Date(now - days * DAY);
  await tx.insert(customerPaymentSettings).values({
    customerId: acme,
    billingEmail: 'accounts@acme.test',
    provider: 'simulator',
    providerCustomerId: 'cus_sim_demo_acme',
    createdAt: at(30),
    updatedAt: at(30),
  });
  const admin = ctx.users['admin@acme.test']?.id ?? null;
  const [visa, poor] = await tx
    .insert(customerPaymentMethods)
    .values([
      {
        customerId: acme,
        provider: 'simulator',
        providerPaymentMethodId: 'pm_sim_4242_demo_acme',
        providerSetupIntentId: 'seti_sim_demo_acme_1',
        brand: 'visa',
        last4: '4242',
        expMonth: 8,
        expYear: new Date(now).getUTCFullYear() + 3,
        isDefault: true,
        createdById: admin,
        createdAt: at(30),
      },
      {
        customerId: acme,
        provider: 'simulator',
        providerPaymentMethodId: 'pm_sim_9995_demo_acme',
        providerSetupIntentId: 'seti_sim_demo_acme_2',
        brand: 'visa',
        last4: '9995',
        expMonth: 2,
        expYear: new Date(now).getUTCFullYear() + 2,
        isDefault: false,
        createdById: admin,
        createdAt: at(20),
      },
    ])
    .returning();
  if (!visa || !poor) return;
  const paidFor = await tx
    .select({ id: cases.id, process: processes.name })
    .from(cases)
    .innerJoin(
      processes,
      and(eq(processes.customerId, cases.customerId), eq(processes.id, cases.processId)),
    )
    .where(eq(cases.customerId, acme))
    .orderBy(asc(cases.id))
    .limit(2);
  const plan = [
    [{ card: visa.id, ok: true, days: 12 }],
    [
      { card: poor.id, ok: false, days: 6 },
      { card: visa.id, ok: true, days: 5 },
    ],
  ];
  for (const [i, c] of paidFor.entries()) {
    for (const [j, attempt] of (plan[i] ?? []).entries()) {
      await tx.insert(productPayments).values({
        customerId: acme,
        caseId: c.id,
        description: `${c.process} (case ${c.id})`,
        amountPence: 3100,
        provider: 'simulator',
        providerPaymentId: `pi_sim_demo_case_${c.id}_${j + 1}`,
        status: attempt.ok ? 'succeeded' : 'failed',
        attempt: j + 1,
        paymentMethodId: attempt.card,
        idempotencyKey: `kestrel-case-${acme}-${c.id}-${j + 1}`,
        failureCode: attempt.ok ? null : 'insufficient_funds',
        failureMessage: attempt.ok ? null : 'Your card has insufficient funds.',
        createdAt: at(attempt.days),
        updatedAt: at(attempt.days),
      });
    }
  }
  // Acme's cases held for their payment: each charge declined on the poor card, to retry.
  const heldCases = await tx
    .select({ id: cases.id, process: processes.name })
    .from(cases)
    .innerJoin(
      processes,
      and(eq(processes.customerId, cases.customerId), eq(processes.id, cases.processId)),
    )
    .where(and(eq(cases.customerId, acme), eq(cases.state, 'awaiting-payment')))
    .orderBy(asc(cases.id));
  for (const held of heldCases) {
    await tx.insert(productPayments).values({
      customerId: acme,
      caseId: held.id,
      description: `${held.process} (case ${held.id})`,
      amountPence: 3100,
      provider: 'simulator',
      providerPaymentId: `pi_sim_demo_case_${held.id}_1`,
      status: 'failed',
      attempt: 1,
      paymentMethodId: poor.id,
      idempotencyKey: `kestrel-case-${acme}-${held.id}-1`,
      failureCode: 'insufficient_funds',
      failureMessage: 'Your card has insufficient funds.',
      createdAt: at(1),
      updatedAt: at(1),
    });
  }
  await tx
    .update(pricebooks)
    .set({ invoiced: true })
    .where(eq(pricebooks.customerId, ctx.customers.northgate));
}
