import {
  type CustomerPaymentDetailOut,
  type CustomerPaymentOut,
  customerPaymentDetailOut,
  customerPaymentFilters,
  customerPaymentId,
  customerPaymentOut,
  formatPence,
  OPS_PAYMENT_STATES,
  type OpsPaymentState,
  PAYMENT_SOURCES,
  type PaymentSource,
  parseCustomerPaymentId,
} from '@kestrel/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { actorOf } from '../../platform/access.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { INT4_MAX } from '../../platform/ids.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema, pageSchema } from '../../platform/pagination.js';
import { queryDate, queryDateEnd, queryIds, queryString } from '../../platform/query-params.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { paymentDetail } from './ops-payments.js';

/*
 * The customer's payments (issue 30): GET /api/payments/ lists its product payments (what it paid
 * for its checks) and the portal payments its subjects made (payment intents) in one list, newest
 * first, with kind, status, date and search filters; GET /api/payments/{kind}-{id}/ one of them
 * with what it paid for, the provider's events and its refunds. Tenant transactions (RLS), the
 * customer named in every condition too.
 */

const PATH = '/api/payments/';
const VIEW = { access: { permissions: ['payments.view_payment' as const] } };

export interface PaymentFilters {
  kind: PaymentSource | null;
  states: OpsPaymentState[] | null;
  after: Date | undefined;
  before: Date | undefined;
  cases: number[] | undefined;
  activities: number[] | undefined;
  search: string;
}

function choices<T extends string>(
  query: unknown,
  name: string,
  allowed: readonly T[],
): T[] | null {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return null;
  const values = raw.split(',').filter(Boolean);
  const out: T[] = [];
  for (const v of values) {
    const found = allowed.find((a) => a === v);
    if (!found) throw ValidationError.invalidChoice(name, v);
    out.push(found);
  }
  return out.length > 0 ? out : null;
}

/** The list's filters from its query string: 400 `{field: [message]}` for a bad value. */
export function paymentFiltersOf(query: unknown): PaymentFilters {
  const kinds = choices(query, 'kind', PAYMENT_SOURCES);
  if (kinds && kinds.length > 1) throw ValidationError.of('kind', 'Choose one kind.');
  const search = (queryString(query, 'search') ?? '').trim();
  return {
    kind: kinds?.[0] ?? null,
    states: choices(query, 'status', OPS_PAYMENT_STATES),
    after: queryDate(query, 'created_after'),
    before: queryDateEnd(query, 'created_before'),
    cases: queryIds(query, 'case'),
    activities: queryIds(query, 'case_activity'),
    search,
  };
}

const likeOf = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Both kinds as one relation: kind, id, reference, description, check, case, activity, amount,
 * outcome (awaiting, paid, declined), created_at; limited to `customerId` and the kind asked for.
 */
function paymentsRelation(customerId: number, kind: PaymentSource | null): SQL {
  const product = sql`
    select 'product'::text as kind, pp.id, 'PP-' || pp.id as reference, pp.description,
      null::text as check_name, pp.case_id, null::integer as case_activity_id, pp.amount_pence,
      case pp.status when 'succeeded' then 'paid' when 'failed' then 'declined' else 'awaiting' end
        as outcome,
      pp.created_at
    from product_payments pp where pp.customer_id = ${customerId}`;
  const portal = sql`
    select 'portal'::text as kind, pi.id, pi.public_id as reference, pi.reason as description,
      at.name as check_name, pi.case_id, pi.case_activity_id, pi.amount_pence,
      case pi.outcome when 'paid' then 'paid' when 'declined' then 'declined' else 'awaiting' end
        as outcome,
      pi.created_at
    from payment_intents pi
    left join case_activities ca on ca.customer_id = pi.customer_id and ca.id = pi.case_activity_id
    left join activity_types at on at.id = ca.activity_type_id
    where pi.customer_id = ${customerId}`;
  if (kind === 'product') return product;
  if (kind === 'portal') return portal;
  return sql`${product} union all ${portal}`;
}

/** The payments with their subject, refunds counted and state: the list's rows before paging. */
function rowsQuery(customerId: number, f: PaymentFilters): SQL {
  const conds: SQL[] = [sql`true`];
  if (f.after) conds.push(sql`x.created_at >= ${f.after.toISOString()}`);
  if (f.before) conds.push(sql`x.created_at < ${f.before.toISOString()}`);
  if (f.cases)
    conds.push(
      sql`x.case_id in (${sql.join(
        f.cases.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    );
  if (f.activities) {
    conds.push(
      sql`x.case_activity_id in (${sql.join(
        f.activities.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    );
  }
  if (f.states) {
    conds.push(
      sql`x.state in (${sql.join(
        f.states.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  }
  if (f.search) {
    // a case reference (12 or #12) finds that case's payments; other text the payment's
    // reference, what it was for, or the subject's name
    const caseRef = /^#?\s*([1-9][0-9]{0,8})$/.exec(f.search);
    const like = likeOf(f.search);
    conds.push(
      caseRef
        ? sql`x.case_id = ${Number(caseRef[1])}`
        : sql`(x.reference ilike ${like} or x.description ilike ${like}
            or (x.subject_first || ' ' || x.subject_last) ilike ${like})`,
    );
  }
  return sql`
    select * from (
      select y.*,
        case
          when y.outcome <> 'paid' then y.outcome
          when y.refunded <= 0 then 'paid'
          when y.refunded >= y.amount_pence then 'refunded'
          else 'partially_refunded'
        end as state
      from (
        select p.*, s.first_name as subject_first, s.last_name as subject_last,
          coalesce((
            select sum(r.amount_pence) from payment_refunds r
            where r.customer_id = ${customerId} and r.source = p.kind and r.payment_id = p.id
              and r.status in ('pending', 'succeeded')
          ), 0)::integer as refunded
        from (${paymentsRelation(customerId, f.kind)}) p
        left join cases c on c.customer_id = ${customerId} and c.id = p.case_id
        left join subjects s on s.customer_id = ${customerId} and s.id = c.subject_id
      ) y
    ) x
    where ${sql.join(conds, sql` and `)}`;
}

interface Row extends Record<string, unknown> {
  kind: string;
  id: number;
  reference: string;
  description: string;
  check_name: string | null;
  case_id: number | null;
  case_activity_id: number | null;
  amount_pence: number;
  created_at: Date | string;
  subject_first: string | null;
  subject_last: string | null;
  refunded: number;
  state: string;
}

const kindOf = (k: string): PaymentSource => (k === 'portal' ? 'portal' : 'product');
const stateOf = (s: string): OpsPaymentState =>
  OPS_PAYMENT_STATES.find((x) => x === s) ?? 'awaiting';
const nameOf = (first: string | null, last: string | null) =>
  first === null && last === null ? null : `${first ?? ''} ${last ?? ''}`.trim();

function rowOut(r: Row): CustomerPaymentOut {
  const kind = kindOf(r.kind);
  const refunded = Number(r.refunded);
  return {
    id: customerPaymentId(kind, Number(r.id)),
    kind,
    reference: r.reference,
    description: r.description,
    check_name: r.check_name,
    case: r.case_id === null ? null : Number(r.case_id),
    case_activity: r.case_activity_id === null ? null : Number(r.case_activity_id),
    subject_name: nameOf(r.subject_first, r.subject_last),
    amount_pence: Number(r.amount_pence),
    amount_display: formatPence(Number(r.amount_pence)),
    refunded_pence: refunded,
    refunded_display: formatPence(refunded),
    state: stateOf(r.state),
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** One page of the customer's payments, newest first, and how many match. */
export async function listCustomerPayments(
  tx: Tx,
  customerId: number,
  f: PaymentFilters,
  page: { pageSize: number; offset: number },
): Promise<{ count: number; results: CustomerPaymentOut[] }> {
  const rows = rowsQuery(customerId, f);
  const [n] = await tx.execute<{ n: number | string }>(
    sql`select count(*) as n from (${rows}) counted`,
  );
  const found = await tx.execute<Row>(sql`${rows}
    order by x.created_at desc, x.kind, x.id desc
    limit ${page.pageSize} offset ${page.offset}`);
  return { count: Number(n?.n ?? 0), results: found.map(rowOut) };
}

/** One payment (`product-12`, `portal-3`) of the tenant: 404 for another's or none. */
export async function customerPaymentDetail(
  tx: Tx,
  customerId: number,
  raw: string,
): Promise<CustomerPaymentDetailOut> {
  const ref = parseCustomerPaymentId(raw);
  if (!ref) throw new NotFoundError();
  const [row] = await tx.execute<Row>(
    sql`${rowsQuery(customerId, { ...NO_FILTERS, kind: ref.kind })} and x.id = ${ref.id}`,
  );
  if (!row) throw new NotFoundError();
  const d = await paymentDetail(tx, ref.kind, ref.id);
  return {
    ...rowOut(row),
    check_name: d.check_name ?? row.check_name,
    provider: d.provider,
    provider_payment_id: d.provider_payment_id,
    events: d.events,
    refunds: d.refunds.map((r) => ({
      id: r.id,
      amount_pence: r.amount_pence,
      amount_display: r.amount_display,
      status: r.status,
      created_at: r.created_at,
    })),
  };
}

const NO_FILTERS: PaymentFilters = {
  kind: null,
  states: null,
  after: undefined,
  before: undefined,
  cases: undefined,
  activities: undefined,
  search: '',
};

function tenantOf(customerId: number | null): number {
  if (customerId === null) throw new NotFoundError();
  return customerId;
}

export async function customerPaymentsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    PATH,
    {
      schema: {
        tags: ['payments'],
        querystring: listQuerySchema.extend(customerPaymentFilters),
        response: { 200: pageSchema(customerPaymentOut) },
      },
      config: VIEW,
    },
    async (request) => {
      const filters = paymentFiltersOf(request.query);
      const { page, pageSize, offset } = listPage(request.query);
      if (offset > INT4_MAX) throw NotFoundError.page();
      const actor = actorOf(request);
      const customerId = tenantOf(actor.customerId);
      const out = await runInTenant(
        app.deps,
        actor,
        ({ tx }) => listCustomerPayments(tx, customerId, filters, { pageSize, offset }),
        readOnly,
      );
      // a page past the last one: 404 'Invalid page.', as every list answers
      if (out.results.length === 0 && page > 1) throw NotFoundError.page();
      return pageResponse(request, PATH, page, pageSize, out.count, out.results);
    },
  );
  r.get(
    `${PATH}:id/`,
    {
      schema: {
        tags: ['payments'],
        params: z.object({ id: z.string().max(30) }),
        response: { 200: customerPaymentDetailOut },
      },
      config: VIEW,
    },
    async (request) => {
      const actor = actorOf(request);
      const customerId = tenantOf(actor.customerId);
      return runInTenant(
        app.deps,
        actor,
        ({ tx }) => customerPaymentDetail(tx, customerId, request.params.id),
        readOnly,
      );
    },
  );
}
