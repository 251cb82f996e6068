import { CASE_PAYMENT_REASONS } from '@kestrel/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import type { JobKind } from '../../platform/jobs.js';
import { runAsSystem, type ServiceContext } from '../../platform/service-context.js';
import {
  PaymentsCardError,
  PaymentsProviderError,
  type ProviderPaymentIntent,
} from '../../providers/payments/provider.js';
import { SimulatorRefusal } from '../../providers/payments/simulator.js';
import { cases } from '../cases/cases.table.js';
import { inviteSubject } from '../cases/commands/open-case.js';
import { processes } from '../processes/processes.table.js';
import { subjectColumns } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { releasePaymentHold } from './case-hold.js';
import { CASE_CHARGE_JOB, CASE_PAYMENT_CT, chargeKey } from './case-payment.js';
import { paymentsOf } from './config.js';
import { customerPaymentMethods, customerPaymentSettings } from './payment-methods.table.js';
import { productPayments } from './product-payments.table.js';

/*
 * The job charging one attempt at a case's charge (case-payment.ts records the attempt and
 * enqueues it), and the case going on once paid: its subject's invitation.
 */

type PaymentRow = typeof productPayments.$inferSelect;

const payload = z.object({
  customer_id: z.number().int().positive(),
  product_payment_id: z.number().int().positive(),
});
export type CaseChargeJob = z.infer<typeof payload>;

/** A refusal asking again will not change (a decline, a 4xx): recorded, not retried. */
function refusalOf(e: unknown): { code: string; message: string } | null {
  if (e instanceof PaymentsCardError) {
    return {
      code: e.code,
      message:
        e.code === 'authentication_required'
          ? CASE_PAYMENT_REASONS.authenticationRequired
          : e.message,
    };
  }
  if (e instanceof PaymentsProviderError && !e.retryable) {
    return { code: 'provider_refused', message: e.message };
  }
  if (e instanceof SimulatorRefusal && e.status < 500 && e.status !== 409 && e.status !== 429) {
    return { code: e.code, message: e.message };
  }
  return null;
}

/**
 * Charges one attempt (the job): the attempt and its card read in one transaction, the provider
 * asked outside any (the attempt's idempotency key: a second run or a retry charges once), the
 * answer stored in another while the attempt is still `processing` (a concurrent run stores the
 * same), audited; once paid, the subject's invitation goes (when the process sends one). An
 * outage or timeout throws: the queue retries the job.
 */
export async function chargeCase(deps: AppDeps, job: CaseChargeJob): Promise<void> {
  const actor = jobActor(job.customer_id);
  const found = await runAsSystem(
    deps,
    async (ctx) => {
      const [row] = await ctx.tx
        .select()
        .from(productPayments)
        .where(
          and(
            eq(productPayments.customerId, job.customer_id),
            eq(productPayments.id, job.product_payment_id),
          ),
        );
      // a case's charge, or a subscription's billing period (no case)
      if (row?.status !== 'processing' || row.paymentMethodId === null) return null;
      const [card] = await ctx.tx
        .select()
        .from(customerPaymentMethods)
        .where(
          and(
            eq(customerPaymentMethods.customerId, job.customer_id),
            eq(customerPaymentMethods.id, row.paymentMethodId),
          ),
        );
      const [settings] = await ctx.tx
        .select()
        .from(customerPaymentSettings)
        .where(eq(customerPaymentSettings.customerId, job.customer_id));
      return {
        row,
        card: card ?? null,
        customer: settings?.providerCustomerId ?? null,
      };
    },
    actor,
  );
  if (!found) return;
  const { row, card, customer } = found;
  let answer: ProviderPaymentIntent | null = null;
  let refused: { code: string; message: string } | null = null;
  let providerId: string | null = null;
  if (!card || !customer) {
    refused = { code: 'no_payment_method', message: CASE_PAYMENT_REASONS.noPaymentMethod };
  } else {
    const { provider, config } = paymentsOf(deps);
    try {
      answer = await provider.chargeOffSession(
        {
          amount_pence: row.amountPence,
          customer,
          payment_method: card.providerPaymentMethodId,
          description: row.description,
          metadata: {
            kestrel_product_payment: String(row.id),
            ...(row.caseId !== null ? { case: String(row.caseId) } : {}),
            customer: String(row.customerId),
          },
          idempotency_key:
            row.idempotencyKey ?? chargeKey(row.customerId, row.caseId ?? 0, row.attempt),
        },
        AbortSignal.timeout(config.timeoutMs),
      );
      providerId = answer.id;
    } catch (e) {
      refused = refusalOf(e);
      if (!refused) throw e;
      if (e instanceof PaymentsCardError) providerId = e.paymentIntent;
    }
  }
  await settle(deps, job, row, answer, refused, providerId);
}

async function settle(
  deps: AppDeps,
  job: CaseChargeJob,
  row: PaymentRow,
  answer: ProviderPaymentIntent | null,
  refused: { code: string; message: string } | null,
  providerId: string | null,
): Promise<void> {
  if (answer?.status === 'processing') {
    // the provider settles it later: its webhook events (webhook.ts) pay it or decline it
    await awaitProvider(deps, job, answer.id);
    return;
  }
  const paid = answer?.status === 'succeeded';
  const status = paid ? 'succeeded' : 'failed';
  const failure = paid
    ? null
    : (refused ?? { code: 'payment_failed', message: 'The payment failed.' });
  await runAsSystem(
    deps,
    async (ctx) => {
      const [updated] = await ctx.tx
        .update(productPayments)
        .set({
          status,
          providerPaymentId: providerId,
          failureCode: failure?.code ?? null,
          failureMessage: failure?.message ?? null,
          updatedAt: ctx.clock.now(),
        })
        .where(
          and(
            eq(productPayments.customerId, job.customer_id),
            eq(productPayments.id, job.product_payment_id),
            eq(productPayments.status, 'processing'),
          ),
        )
        .returning();
      if (!updated) return;
      await recordAudit(ctx.tx, ctx.actor, {
        verb: 'updated',
        contentType: CASE_PAYMENT_CT,
        objectId: updated.id,
        objectRepr: `PP-${updated.id}`,
        changes: {
          status: ['processing', status],
          provider_payment_id: providerId,
          ...(failure ? { failure_code: failure.code } : {}),
        },
        customerId: updated.customerId,
      });
      if (paid && row.caseId !== null) await releaseCase(ctx, deps, row.customerId, row.caseId);
    },
    jobActor(job.customer_id),
  );
}

/**
 * A charge the provider answered `processing`: the attempt stays `processing` (the case held),
 * with the provider's intent recorded (audited) for its webhook events to find; a webhook that
 * came first has settled it already, and nothing changes.
 */
async function awaitProvider(deps: AppDeps, job: CaseChargeJob, providerId: string) {
  await runAsSystem(
    deps,
    async (ctx) => {
      const [updated] = await ctx.tx
        .update(productPayments)
        .set({ providerPaymentId: providerId, updatedAt: ctx.clock.now() })
        .where(
          and(
            eq(productPayments.customerId, job.customer_id),
            eq(productPayments.id, job.product_payment_id),
            eq(productPayments.status, 'processing'),
            isNull(productPayments.providerPaymentId),
          ),
        )
        .returning();
      if (!updated) return;
      await recordAudit(ctx.tx, ctx.actor, {
        verb: 'updated',
        contentType: CASE_PAYMENT_CT,
        objectId: updated.id,
        objectRepr: `PP-${updated.id}`,
        changes: { provider_payment_id: providerId, status: 'processing' },
        customerId: updated.customerId,
      });
    },
    jobActor(job.customer_id),
  );
}

/**
 * A case paid for goes on (the charge job, or the provider's webhook for a charge it settled
 * later): out of 'Awaiting payment' to the state its activities give it, and its subject's
 * invitation, when its process sends one. In the caller's transaction.
 */
export async function releaseCase(
  ctx: ServiceContext,
  deps: { config: { publicUrl: string } },
  customerId: number,
  caseId: number,
): Promise<void> {
  await releasePaymentHold(ctx.tx, ctx.actor, customerId, caseId, ctx.clock.now());
  const [r] = await ctx.tx
    .select({
      send: processes.sendInvitation,
      message: processes.invitationMessage,
      subjectId: cases.subjectId,
      state: cases.state,
    })
    .from(cases)
    .innerJoin(
      processes,
      and(eq(processes.customerId, cases.customerId), eq(processes.id, cases.processId)),
    )
    .where(and(eq(cases.customerId, customerId), eq(cases.id, caseId)));
  if (!r?.send || r.state === 'cancelled') return;
  const [subject] = await ctx.tx
    .select(subjectColumns)
    .from(subjects)
    .where(and(eq(subjects.customerId, customerId), eq(subjects.id, r.subjectId)));
  if (!subject) return;
  await inviteSubject(ctx, { publicUrl: deps.config.publicUrl }, subject, caseId, r.message);
}

/** Charges a case's attempt (holdCaseForPayment and retryCasePayment enqueue it). */
export const caseChargeJob: JobKind<CaseChargeJob, AppDeps> = {
  name: CASE_CHARGE_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 60,
  handle: (data, deps) => chargeCase(deps, data),
};
