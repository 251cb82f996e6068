import {
  formatPence,
  type OpsPaymentDetailOut,
  type OpsPaymentState,
  opsPaymentDateFilters,
  opsPaymentDetailOut,
  opsPaymentRecordOut,
  type PaymentEventOut,
  type PaymentRefundOut,
  type PaymentSource,
  paymentRefundCreate,
  REFUND_UNANSWERED_HOURS,
} from '@kestrel/domain';
import { and, asc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { jobActor } from '../../jobs/service-job.js';
import { opsActorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { JobKind, JobRequest } from '../../platform/jobs.js';
import { queryDate, queryDateEnd } from '../../platform/query-params.js';
import type { ResourceContext } from '../../platform/resource-definition.js';
import type { Binder } from '../../platform/resource-query.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { registerResource } from '../../platform/resource-router.js';
import {
  type ContextDeps,
  readOnly,
  runAsSystem,
  runInOps,
} from '../../platform/service-context.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { PaymentsProviderError } from '../../providers/payments/provider.js';
import { SimulatorRefusal } from '../../providers/payments/simulator.js';
import { customers } from '../customers/customers.table.js';
import { type PaymentsDeps, paymentsOf } from './config.js';
import { paymentIntents, payments } from './payments.table.js';
import { paymentRefunds, productPayments } from './product-payments.table.js';
import { INTENT_CONTENT_TYPE, intentWithCheck } from './service.js';

/*
 * Operations' payments (issue 29): portal payments (a subject's top-up, a payment intent) and
 * product payments (a customer paying for its checks) across every customer, one list shape and
 * one refund for both sources. A refund is stored pending (bounded by what was paid, under a lock
 * of the payment), then asked of the provider outside any transaction, then settled.
 */

export const REFUND_CONTENT_TYPE = 'payments.paymentrefund';
export const PRODUCT_PAYMENT_CONTENT_TYPE = 'payments.productpayment';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

type IntentRow = typeof paymentIntents.$inferSelect;
type ProductRow = typeof productPayments.$inferSelect;
type RefundRow = typeof paymentRefunds.$inferSelect;

/** What both sources give: the fields a row shows before its refunds are counted. */
interface Base {
  id: number;
  source: PaymentSource;
  customer: number;
  case: number | null;
  case_activity: number | null;
  reference: string;
  description: string;
  amount_pence: number;
  amount_display: string;
  /** What the provider took (0 until paid). */
  paid_pence: number;
  /** awaiting, paid or declined, before refunds. */
  outcome: 'awaiting' | 'paid' | 'declined';
  provider: string;
  provider_payment_id: string | null;
  created_at: string;
}

function portalBase(r: IntentRow): Base {
  const outcome =
    r.outcome === 'paid' ? 'paid' : r.outcome === 'declined' ? 'declined' : 'awaiting';
  return {
    id: r.id,
    source: 'portal',
    customer: r.customerId,
    case: r.caseId,
    case_activity: r.caseActivityId,
    reference: r.publicId,
    description: r.reason,
    amount_pence: r.amountPence,
    amount_display: formatPence(r.amountPence),
    paid_pence: outcome === 'paid' ? r.amountPence : 0,
    outcome,
    provider: r.provider,
    provider_payment_id: r.providerIntentId,
    created_at: r.createdAt.toISOString(),
  };
}

function productBase(r: ProductRow): Base {
  const outcome =
    r.status === 'succeeded' ? 'paid' : r.status === 'failed' ? 'declined' : 'awaiting';
  return {
    id: r.id,
    source: 'product',
    customer: r.customerId,
    case: r.caseId,
    case_activity: null,
    reference: `PP-${r.id}`,
    description: r.description,
    amount_pence: r.amountPence,
    amount_display: formatPence(r.amountPence),
    paid_pence: outcome === 'paid' ? r.amountPence : 0,
    outcome,
    provider: r.provider,
    provider_payment_id: r.providerPaymentId,
    created_at: r.createdAt.toISOString(),
  };
}

/** Refunds that count against what was paid: asked (pending) or made. */
const COUNTING = ['pending', 'succeeded'];

export function stateOf(
  b: Pick<Base, 'outcome' | 'paid_pence'>,
  refunded: number,
): OpsPaymentState {
  if (b.outcome !== 'paid') return b.outcome;
  if (refunded <= 0) return 'paid';
  return refunded >= b.paid_pence ? 'refunded' : 'partially_refunded';
}

/** The list row: the base with its customer's name and refunds counted. */
function recordOf(b: Base, customerName: string, refunded: number) {
  const { outcome: _o, ...rest } = b;
  return {
    ...rest,
    customer_name: customerName,
    refunded_pence: refunded,
    refunded_display: formatPence(refunded),
    refundable_pence: Math.max(0, b.paid_pence - refunded),
    state: stateOf(b, refunded),
  };
}

/** Customer names and counted refunds of a page of rows (two queries for the page). */
async function extras(tx: Tx, source: PaymentSource, rows: Base[]) {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.customer))];
  const names = new Map(
    (
      await tx
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .where(inArray(customers.id, ids))
    ).map((c) => [c.id, c.name]),
  );
  const sums = await tx
    .select({
      customerId: paymentRefunds.customerId,
      paymentId: paymentRefunds.paymentId,
      n: sql<string>`coalesce(sum(${paymentRefunds.amountPence}), 0)`,
    })
    .from(paymentRefunds)
    .where(
      and(
        inArray(paymentRefunds.customerId, ids),
        eq(paymentRefunds.source, source),
        inArray(
          paymentRefunds.paymentId,
          rows.map((r) => r.id),
        ),
        inArray(paymentRefunds.status, COUNTING),
      ),
    )
    .groupBy(paymentRefunds.customerId, paymentRefunds.paymentId);
  const refunded = new Map(sums.map((s) => [`${s.customerId}:${s.paymentId}`, Number(s.n)]));
  return rows.map((b) => {
    const r = recordOf(b, names.get(b.customer) ?? '', refunded.get(`${b.customer}:${b.id}`) ?? 0);
    const { id: _i, source: _s, customer: _c, ...fields } = r;
    return fields;
  });
}

const dateWhere =
  (col: PgColumn) =>
  ({ query }: ResourceContext, b: Binder): SQL | undefined => {
    const after = queryDate(query, 'created_after');
    const before = queryDateEnd(query, 'created_before');
    return and(
      after ? gte(col, b.bind('after', after)) : undefined,
      before ? lt(col, b.bind('before', before)) : undefined,
    );
  };

/**
 * The lists' dates, and with `refund=unanswered` only the payments with a refund still pending
 * past REFUND_UNANSWERED_HOURS (its answer lost, the retries without one): the ops alert's list.
 */
const listWhere =
  (source: PaymentSource, table: { customerId: PgColumn; id: PgColumn; createdAt: PgColumn }) =>
  (ctx: ResourceContext, b: Binder): SQL | undefined => {
    const dates = dateWhere(table.createdAt)(ctx, b);
    if (ctx.query.refund !== 'unanswered') return dates;
    return and(
      dates,
      sql`exists (select 1 from ${paymentRefunds} r where r.customer_id = ${table.customerId}
        and r.payment_id = ${table.id} and r.source = ${sql.raw(`'${source}'`)}
        and r.status = 'pending'
        and r.created_at < ${b.bind('refund_before', refundUnansweredBefore(ctx.clock.now()))})`,
    );
  };

/** Refunds created before this and still pending are unanswered (the ops alert). */
export function refundUnansweredBefore(now: Date): Date {
  return new Date(now.getTime() - REFUND_UNANSWERED_HOURS * 3_600_000);
}

function refundOut(r: RefundRow): PaymentRefundOut {
  return {
    id: r.id,
    amount_pence: r.amountPence,
    amount_display: formatPence(r.amountPence),
    status: r.status === 'succeeded' ? 'succeeded' : r.status === 'failed' ? 'failed' : 'pending',
    provider_refund_id: r.providerRefundId,
    failure_message: r.failureMessage,
    created_by_name: r.createdByName,
    created_at: r.createdAt.toISOString(),
  };
}

/** One payment of `source` by id, locked for a refund when `lock`. */
async function loadBase(
  tx: Tx,
  source: PaymentSource,
  id: number,
  lock: boolean,
): Promise<Base | null> {
  if (source === 'portal') {
    const q = tx.select().from(paymentIntents).where(eq(paymentIntents.id, id)).limit(1);
    const [r] = lock ? await q.for('update') : await q;
    return r ? portalBase(r) : null;
  }
  const q = tx.select().from(productPayments).where(eq(productPayments.id, id)).limit(1);
  const [r] = lock ? await q.for('update') : await q;
  return r ? productBase(r) : null;
}

async function refundsOf(tx: Tx, b: Base): Promise<RefundRow[]> {
  return tx
    .select()
    .from(paymentRefunds)
    .where(
      and(
        eq(paymentRefunds.customerId, b.customer),
        eq(paymentRefunds.source, b.source),
        eq(paymentRefunds.paymentId, b.id),
      ),
    )
    .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
}

const counted = (refunds: RefundRow[]) =>
  refunds.filter((r) => COUNTING.includes(r.status)).reduce((n, r) => n + r.amountPence, 0);

/** The detail: the row, what the provider told (its webhook events) and the refunds. */
export async function paymentDetail(
  tx: Tx,
  source: PaymentSource,
  id: number,
): Promise<OpsPaymentDetailOut> {
  const b = await loadBase(tx, source, id, false);
  if (!b) throw new NotFoundError();
  const refunds = await refundsOf(tx, b);
  const [customer] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, b.customer));
  const events: PaymentEventOut[] = [];
  let checkName: string | null = null;
  if (source === 'portal') {
    const found = await intentWithCheck(
      tx,
      and(eq(paymentIntents.customerId, b.customer), eq(paymentIntents.id, b.id)),
    );
    checkName = found?.checkName ?? null;
    const stored = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.customerId, b.customer), eq(payments.paymentIntentId, b.id)))
      .orderBy(asc(payments.createdAt), asc(payments.id));
    for (const p of stored) {
      events.push({
        id: p.providerEventId,
        type:
          p.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
        amount_pence: p.amountPence,
        amount_display: formatPence(p.amountPence),
        status: p.status,
        message: p.failureMessage,
        at: p.createdAt.toISOString(),
      });
    }
  }
  if (source === 'product') events.push(...(await productEvents(tx, b)));
  for (const r of refunds) {
    if (!r.providerRefundId) continue;
    events.push({
      id: r.providerRefundId,
      type: r.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed',
      amount_pence: r.amountPence,
      amount_display: formatPence(r.amountPence),
      status: r.status,
      message: r.failureMessage,
      at: r.updatedAt.toISOString(),
    });
  }
  events.sort((x, y) => x.at.localeCompare(y.at));
  return {
    ...recordOf(b, customer?.name ?? '', counted(refunds)),
    check_name: checkName,
    events,
    refunds: refunds.map(refundOut),
  };
}

const PRODUCT_EVENT_TYPES: Record<string, string> = {
  succeeded: 'payment_intent.succeeded',
  failed: 'payment_intent.payment_failed',
  processing: 'payment_intent.processing',
};

/**
 * A product payment's provider events: those its webhook acted on (webhook.ts records each in
 * the payment's audit, with the event's id and the state it moved to).
 */
async function productEvents(tx: Tx, b: Base): Promise<PaymentEventOut[]> {
  const rows = await tx
    .select({ changes: auditActions.changes, at: auditActions.createdAt })
    .from(auditActions)
    .where(
      and(
        eq(auditActions.customerId, b.customer),
        eq(auditActions.contentType, PRODUCT_PAYMENT_CONTENT_TYPE),
        eq(auditActions.objectId, String(b.id)),
        sql`${auditActions.changes}->>'event' is not null`,
      ),
    )
    .orderBy(asc(auditActions.createdAt), asc(auditActions.id));
  return rows.flatMap((r) => {
    const { event, status, failure_message: message } = r.changes;
    const to = Array.isArray(status) ? status[1] : status;
    if (typeof event !== 'string' || typeof to !== 'string') return [];
    return [
      {
        id: event,
        type: PRODUCT_EVENT_TYPES[to] ?? to,
        amount_pence: b.amount_pence,
        amount_display: formatPence(b.amount_pence),
        status: to,
        message: typeof message === 'string' ? message : null,
        at: r.at.toISOString(),
      },
    ];
  });
}

export interface RefundRequest {
  amount_pence?: number | undefined;
  key: string;
}

/**
 * Refunds a payment, all that is left or `amount_pence` of it, once per key: the refund is stored
 * pending under a lock of the payment (so concurrent refunds never exceed what was paid), asked of
 * the provider (its idempotency key the refund's), and settled; a repeated key answers the refund
 * it made (a pending one is asked of the provider again: it refunds once). Audited. A call whose
 * answer is lost (an outage, a 5xx, a timeout: the provider may have refunded) leaves the refund
 * pending, still counted against what was paid, and enqueues REFUND_RETRY_JOB, which asks again
 * with the same key until the provider answers; only a definite refusal marks it failed.
 */
export async function refundPayment(
  deps: ContextDeps & PaymentsDeps,
  actor: Actor,
  source: PaymentSource,
  id: number,
  req: RefundRequest,
): Promise<{ refund: PaymentRefundOut; created: boolean }> {
  const prepared = await runAsSystem(
    deps,
    async (ctx) => {
      const b = await loadBase(ctx.tx, source, id, true);
      if (!b) throw new NotFoundError();
      const refunds = await refundsOf(ctx.tx, b);
      const same = refunds.find((r) => r.idempotencyKey === req.key);
      if (same) return { row: same, base: b, created: false };
      if (b.outcome !== 'paid' || !b.provider_payment_id) {
        throw ValidationError.of('amount_pence', 'Only a paid payment can be refunded.');
      }
      const left = b.paid_pence - counted(refunds);
      if (left <= 0) throw ValidationError.of('amount_pence', 'The payment is already refunded.');
      const amount = req.amount_pence ?? left;
      if (amount > left) {
        throw ValidationError.of('amount_pence', `At most ${formatPence(left)} is left to refund.`);
      }
      const [row] = await ctx.tx
        .insert(paymentRefunds)
        .values({
          customerId: b.customer,
          source,
          paymentId: b.id,
          amountPence: amount,
          idempotencyKey: req.key,
          createdById: actor.id,
          createdByName: actor.name.slice(0, 200),
          createdAt: ctx.clock.now(),
          updatedAt: ctx.clock.now(),
        })
        .returning();
      if (!row) throw new Error('refund not stored');
      await recordAudit(ctx.tx, actor, {
        verb: 'created',
        contentType: REFUND_CONTENT_TYPE,
        objectId: row.id,
        objectRepr: `${b.reference} refund ${formatPence(amount)}`,
        changes: {
          source,
          payment: b.id,
          amount_pence: amount,
          content_type: source === 'portal' ? INTENT_CONTENT_TYPE : PRODUCT_PAYMENT_CONTENT_TYPE,
        },
        customerId: b.customer,
      });
      return { row, base: b, created: true };
    },
    actor,
  );
  const { row, base } = prepared;
  if (row.status !== 'pending' || !base.provider_payment_id) {
    return { refund: refundOut(row), created: prepared.created };
  }
  const answer = await askProvider(deps, row, base);
  if (answer.kind === 'lost') {
    // the provider may have refunded: the refund stays pending (counted) and a job asks again
    // with the same key until it answers
    await runAsSystem(deps, (ctx) => ctx.enqueue(refundRetryJobOf(row)), actor);
    return { refund: refundOut(row), created: prepared.created };
  }
  const settled = await settleRefund(deps, actor, row, base, answer);
  return { refund: refundOut(settled), created: prepared.created };
}

/** What the provider answered a refund: made, refused, or nothing known (its answer lost). */
type ProviderAnswer =
  | {
      kind: 'settled';
      status: 'succeeded' | 'failed';
      providerRefundId: string | null;
      failure: string | null;
    }
  | { kind: 'lost'; error: unknown };

/**
 * A definite refusal: the provider will answer the same however often it is asked (a 4xx other
 * than 409 and 429). Anything else (an outage, a 5xx, a timeout or abort, a network error) may
 * have refunded: its answer is lost.
 */
function isRefusal(e: unknown): e is Error {
  if (e instanceof PaymentsProviderError) return !e.retryable;
  return e instanceof SimulatorRefusal && e.status < 500 && e.status !== 409 && e.status !== 429;
}

/** Asks the provider for refund `row` (its idempotency key the refund's, so it refunds once). */
async function askProvider(
  deps: ContextDeps & PaymentsDeps,
  row: RefundRow,
  base: Base,
): Promise<ProviderAnswer> {
  const { provider } = paymentsOf(deps);
  if (!base.provider_payment_id) {
    return {
      kind: 'settled',
      status: 'failed',
      providerRefundId: null,
      failure: 'Nothing to refund.',
    };
  }
  try {
    const r = await provider.createRefund(
      {
        payment_intent: base.provider_payment_id,
        amount_pence: row.amountPence,
        metadata: { source: row.source, payment: String(base.id), customer: String(base.customer) },
        idempotency_key: `kestrel-refund-${row.customerId}-${row.id}`,
      },
      AbortSignal.timeout(15_000),
    );
    const failed = r.status === 'failed' || r.status === 'canceled';
    return {
      kind: 'settled',
      status: failed ? 'failed' : 'succeeded',
      providerRefundId: r.id,
      failure: failed ? 'The payments provider refused the refund.' : null,
    };
  } catch (e) {
    if (!isRefusal(e)) return { kind: 'lost', error: e };
    return {
      kind: 'settled',
      status: 'failed',
      providerRefundId: null,
      failure: e.message.slice(0, 500) || 'The refund failed.',
    };
  }
}

/** Settles a pending refund with the provider's answer (once: a settled one is answered as is). */
async function settleRefund(
  deps: ContextDeps,
  actor: Actor,
  row: RefundRow,
  base: Base,
  answer: Extract<ProviderAnswer, { kind: 'settled' }>,
): Promise<RefundRow> {
  const { status, providerRefundId, failure } = answer;
  return runAsSystem(
    deps,
    async (ctx) => {
      const [u] = await ctx.tx
        .update(paymentRefunds)
        .set({ status, providerRefundId, failureMessage: failure, updatedAt: ctx.clock.now() })
        .where(
          and(
            eq(paymentRefunds.customerId, row.customerId),
            eq(paymentRefunds.id, row.id),
            eq(paymentRefunds.status, 'pending'),
          ),
        )
        .returning();
      if (!u) {
        const [now] = await ctx.tx
          .select()
          .from(paymentRefunds)
          .where(and(eq(paymentRefunds.customerId, row.customerId), eq(paymentRefunds.id, row.id)));
        if (!now) throw new NotFoundError();
        return now;
      }
      await recordAudit(ctx.tx, actor, {
        verb: 'updated',
        contentType: REFUND_CONTENT_TYPE,
        objectId: u.id,
        objectRepr: `${base.reference} refund ${formatPence(u.amountPence)}`,
        changes: { status: ['pending', status], provider_refund_id: providerRefundId },
        customerId: u.customerId,
      });
      return u;
    },
    actor,
  );
}

/** The job that asks the provider again for a refund whose answer was lost. */
export const REFUND_RETRY_JOB = 'payments-refund-retry';
const refundRetryPayload = z.object({
  customer_id: z.number().int().positive(),
  refund_id: z.number().int().positive(),
});
export type RefundRetryJob = z.infer<typeof refundRetryPayload>;

function refundRetryJobOf(row: RefundRow): JobRequest {
  return {
    name: REFUND_RETRY_JOB,
    data: refundRetryPayload.parse({ customer_id: row.customerId, refund_id: row.id }),
  };
}

/**
 * Asks the provider again for a pending refund (same idempotency key: a refund it made is
 * answered, never made twice) and settles it; a refund settled meanwhile needs nothing. A call
 * whose answer is lost again throws: the queue retries the job (with back-off).
 */
export async function retryRefund(
  deps: ContextDeps & PaymentsDeps,
  job: RefundRetryJob,
): Promise<void> {
  const actor = jobActor(job.customer_id);
  const found = await runAsSystem(
    deps,
    async (ctx) => {
      const [row] = await ctx.tx
        .select()
        .from(paymentRefunds)
        .where(
          and(eq(paymentRefunds.customerId, job.customer_id), eq(paymentRefunds.id, job.refund_id)),
        );
      if (row?.status !== 'pending') return null;
      const source: PaymentSource = row.source === 'product' ? 'product' : 'portal';
      const base = await loadBase(ctx.tx, source, row.paymentId, false);
      return base ? { row, base } : null;
    },
    actor,
  );
  if (!found) return;
  const answer = await askProvider(deps, found.row, found.base);
  if (answer.kind === 'lost') throw answer.error;
  await settleRefund(deps, actor, found.row, found.base, answer);
}

/** Registered in jobs/index.ts. */
export const refundRetryJob: JobKind<RefundRetryJob, AppDeps> = {
  name: REFUND_RETRY_JOB,
  payload: refundRetryPayload,
  retry: { limit: 8, delaySeconds: 30, backoff: true },
  expireInSeconds: 60,
  handle: (data, deps) => retryRefund(deps, data),
};

const READ_PORTAL = { permissions: ['payments.view_all_portal_payments' as const] };
const READ_PRODUCT = { permissions: ['payments.view_all_product_payments' as const] };

/** /api/ops/portal-payments/ and /api/ops/product-payments/: list, detail, refund. */
export async function opsPaymentsRoutes(app: FastifyInstance): Promise<void> {
  registerResource(app, {
    path: '/api/ops/portal-payments/',
    table: paymentIntents,
    id: paymentIntents.id,
    contentType: INTENT_CONTENT_TYPE,
    context: 'ops',
    operations: ['list'],
    access: { read: READ_PORTAL },
    present: (r) => {
      const { outcome: _o, ...b } = portalBase(r);
      return b;
    },
    augment: ({ tx }, rows) => extras(tx, 'portal', rows.map(portalBase)),
    output: opsPaymentRecordOut,
    repr: (r) => r.publicId,
    filters: { customer: paymentIntents.customerId, status: paymentIntents.outcome },
    search: [paymentIntents.publicId, paymentIntents.reason],
    ordering: { created_at: paymentIntents.createdAt, id: paymentIntents.id },
    defaultOrdering: '-created_at',
    queryParams: opsPaymentDateFilters,
    where: listWhere('portal', paymentIntents),
  });
  registerResource(app, {
    path: '/api/ops/product-payments/',
    table: productPayments,
    id: productPayments.id,
    contentType: PRODUCT_PAYMENT_CONTENT_TYPE,
    context: 'ops',
    operations: ['list'],
    access: { read: READ_PRODUCT },
    present: (r) => {
      const { outcome: _o, ...b } = productBase(r);
      return b;
    },
    augment: ({ tx }, rows) => extras(tx, 'product', rows.map(productBase)),
    output: opsPaymentRecordOut,
    repr: (r) => `PP-${r.id}`,
    filters: { customer: productPayments.customerId, status: productPayments.status },
    search: [productPayments.description],
    ordering: { created_at: productPayments.createdAt, id: productPayments.id },
    defaultOrdering: '-created_at',
    queryParams: opsPaymentDateFilters,
    where: listWhere('product', productPayments),
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [source, read] of [
    ['portal', READ_PORTAL],
    ['product', READ_PRODUCT],
  ] as const) {
    const base = `/api/ops/${source}-payments/:id/`;
    r.get(
      base,
      {
        schema: { tags: ['ops'], params: idParams, response: { 200: opsPaymentDetailOut } },
        config: { access: read },
      },
      async (request) =>
        runInOps(
          app.deps,
          opsActorOf(request),
          ({ tx }) => paymentDetail(tx, source, parseId(request.params.id)),
          readOnly,
        ),
    );
    r.post(
      `${base}refund/`,
      {
        schema: {
          tags: ['ops'],
          params: idParams,
          body: paymentRefundCreate,
          response: { 200: opsPaymentDetailOut, 201: opsPaymentDetailOut },
        },
        // no refund permission in the domain: operations who see every customer's payments
        config: { access: read },
      },
      async (request, reply) => {
        const id = parseId(request.params.id);
        const header = request.headers[IDEMPOTENCY_HEADER];
        const key = (typeof header === 'string' ? header : undefined) ?? request.body.request_id;
        if (!key || key.length > 100) {
          throw ValidationError.of(
            'request_id',
            'An Idempotency-Key header or a request_id (up to 100 characters) is required.',
          );
        }
        const actor = opsActorOf(request);
        const out = await refundPayment(app.deps, actor, source, id, {
          amount_pence: request.body.amount_pence,
          key,
        });
        const detail = await runInOps(
          app.deps,
          actor,
          ({ tx }) => paymentDetail(tx, source, id),
          readOnly,
        );
        return reply.code(out.created ? 201 : 200).send(detail);
      },
    );
  }
}
