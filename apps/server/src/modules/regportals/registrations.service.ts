import {
  isoDate,
  type PortalRegistrationDetailOut,
  type PortalRegistrationOut,
  REGISTRATION_EXPIRY_HOURS,
  REGISTRATION_MESSAGES,
  REGISTRATION_STATES,
  type RegistrationRequest,
  type RegistrationResultOut,
  type RegistrationState,
} from '@kestrel/domain';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { emailJob } from '../../jobs/send-email.js';
import { recordAudit } from '../../platform/audit.js';
import { emailSite } from '../../platform/email-site.js';
import { brandedEmail } from '../../platform/email-template.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { queryDate, queryDateEnd, queryIds, queryString } from '../../platform/query-params.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { hashToken, newToken } from '../../platform/tokens.js';
import { openCase } from '../cases/commands/open-case.js';
import type { CaseMailDeps } from '../cases/commands/subject-email.js';
import { customers } from '../customers/customers.table.js';
import { quoteProcess } from '../pricebooks/pricebooks.service.js';
import {
  getSubject,
  insertSubject,
  type SubjectRow,
  subjectLoginFor,
} from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import {
  assertAvailable,
  liveRegistrationCounts,
  type PortalRow,
  unavailableOf,
} from './portals.service.js';
import {
  portalRegistrationEvents,
  portalRegistrations,
  registrationPortals,
} from './regportals.table.js';

export const REGISTRATION_CT = 'regportals.portalregistration';

export type RegistrationRow = typeof portalRegistrations.$inferSelect;

/** States a registration leaves only by moving on (the expiry job's). */
export const OPEN_STATES: readonly RegistrationState[] = [
  'started',
  'email_confirmed',
  'awaiting_payment',
];

const EXPIRY_MS = REGISTRATION_EXPIRY_HOURS * 3_600_000;

/** The case portal of a registration's case. */
export const casePortalUrl = (caseId: number) => `/s/case-portal/${caseId}`;

/**
 * What comes after a registration's payment (subject pays): the payment portal's link of its
 * intent. Set by the payments integration (registration-payment.ts); null until it is.
 */
export type PaymentLinkOf = (ctx: ServiceContext, r: RegistrationRow) => Promise<string | null>;

export async function addEvent(
  ctx: ServiceContext,
  r: Pick<RegistrationRow, 'customerId' | 'id'>,
  state: RegistrationState,
  note = '',
): Promise<void> {
  await ctx.tx.insert(portalRegistrationEvents).values({
    customerId: r.customerId,
    registrationId: r.id,
    state,
    note: note.slice(0, 300),
    at: ctx.clock.now(),
  });
}

/** Moves a registration to `state` (and the other columns given), with its event and audit. */
export async function moveRegistration(
  ctx: ServiceContext,
  r: RegistrationRow,
  state: RegistrationState,
  set: Partial<typeof portalRegistrations.$inferInsert> = {},
  note = '',
): Promise<RegistrationRow> {
  const [row] = await ctx.tx
    .update(portalRegistrations)
    .set({ ...set, state, updatedAt: ctx.clock.now() })
    .where(and(eq(portalRegistrations.customerId, r.customerId), eq(portalRegistrations.id, r.id)))
    .returning();
  if (!row) throw new NotFoundError();
  await addEvent(ctx, row, state, note);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'state_changed',
    contentType: REGISTRATION_CT,
    objectId: row.id,
    objectRepr: `${row.firstName} ${row.lastName}`,
    changes: { state: [r.state, state], ...(note ? { note } : {}) },
    customerId: row.customerId,
  });
  return row;
}

/** The registration with a lock, of the context's customer (RLS); 404 otherwise. */
export async function lockRegistration(tx: Tx, id: number): Promise<RegistrationRow> {
  const [r] = await tx
    .select()
    .from(portalRegistrations)
    .where(eq(portalRegistrations.id, id))
    .limit(1)
    .for('update');
  if (!r) throw new NotFoundError();
  return r;
}

/** Its portal (RLS). */
export async function portalOf(
  tx: Tx,
  r: Pick<RegistrationRow, 'regPortalId'>,
): Promise<PortalRow> {
  const [p] = await tx
    .select()
    .from(registrationPortals)
    .where(eq(registrationPortals.id, r.regPortalId))
    .limit(1);
  if (!p) throw new NotFoundError();
  return p;
}

/** The answer of a registration: its state and where the person goes next. */
export function resultOf(
  r: RegistrationRow,
  existing: boolean,
  paymentUrl: string | null = null,
): RegistrationResultOut {
  return {
    registration_id: r.id,
    state: r.state,
    existing,
    next_url:
      r.state === 'case_created' && r.caseId !== null
        ? casePortalUrl(r.caseId)
        : r.state === 'awaiting_payment'
          ? paymentUrl
          : null,
  };
}

/** The emailed link that confirms a registration (and where the person chooses a password). */
export function confirmationEmail(
  ctx: Pick<ServiceContext, 'actor'>,
  mail: CaseMailDeps,
  portal: Pick<PortalRow, 'segmentId' | 'path' | 'title'>,
  r: Pick<RegistrationRow, 'email' | 'firstName'>,
  customerName: string,
  token: string,
) {
  const site = emailSite(ctx.actor.brandAddress, mail.publicUrl);
  const link = `${site.publicUrl}/self-initiate/${portal.segmentId}/${portal.path}?confirm=${encodeURIComponent(token)}`;
  return brandedEmail(site, {
    to: r.email,
    subject: `Confirm your registration: ${portal.title}`,
    greeting: `Hello ${r.firstName},`,
    paragraphs: [
      `You registered for ${portal.title} with ${customerName} in ${site.brand.name}.`,
      'Confirm your email address and choose a password to continue.',
    ],
    action: { label: 'Confirm your email', url: link },
    after: [
      `The link works for ${REGISTRATION_EXPIRY_HOURS} hours. If you did not register, ignore this email.`,
    ],
  });
}

async function customerNameOf(tx: Tx, customerId: number): Promise<string> {
  const [c] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, customerId));
  return c?.name ?? '';
}

/** A new confirmation token for a started registration, and its email enqueued. */
export async function sendConfirmation(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  portal: PortalRow,
  r: RegistrationRow,
): Promise<void> {
  const token = newToken();
  await ctx.tx
    .update(portalRegistrations)
    .set({ tokenHash: hashToken(token), updatedAt: ctx.clock.now() })
    .where(and(eq(portalRegistrations.customerId, r.customerId), eq(portalRegistrations.id, r.id)));
  const name = await customerNameOf(ctx.tx, r.customerId);
  await ctx.enqueue(emailJob(confirmationEmail(ctx, mail, portal, r, name, token)));
}

/** The portal locked (the limit is counted under the lock): 404 when it is gone. */
async function lockPortal(tx: Tx, id: number): Promise<PortalRow> {
  const [p] = await tx
    .select()
    .from(registrationPortals)
    .where(eq(registrationPortals.id, id))
    .limit(1)
    .for('update');
  if (!p) throw new NotFoundError();
  return p;
}

/** The registration of this email on the portal that has not expired (expiring one past time). */
async function liveRegistration(
  ctx: ServiceContext,
  portalId: number,
  email: string,
): Promise<RegistrationRow | null> {
  const [r] = await ctx.tx
    .select()
    .from(portalRegistrations)
    .where(
      and(
        eq(portalRegistrations.regPortalId, portalId),
        eq(portalRegistrations.email, email),
        ne(portalRegistrations.state, 'expired'),
      ),
    )
    .limit(1)
    .for('update');
  if (!r) return null;
  if (OPEN_STATES.includes(r.state) && r.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    await expireOne(ctx, r);
    return null;
  }
  return r;
}

/** The details the portal asks that are required, missing: 400 in the `{field: [msg]}` shape. */
function checkAsked(portal: PortalRow, body: Pick<RegistrationRequest, 'dob' | 'phone'>) {
  const errors: Record<string, string[]> = {};
  if (portal.askDob === 'required' && !body.dob) errors.dob = ['Required'];
  if (portal.askPhone === 'required' && !body.phone) errors.phone = ['Required'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * A registration through a portal's public form (in the portal's customer's tenant): the same
 * person (email) on the same portal gets theirs back (`existing`, the confirmation sent again
 * while it is started); otherwise a portal that takes none answers 409, and a new one starts,
 * expiring in REGISTRATION_EXPIRY_HOURS, its confirmation link emailed.
 */
export async function registerPublic(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  portalId: number,
  body: RegistrationRequest,
  paymentLink: PaymentLinkOf,
): Promise<RegistrationResultOut> {
  const portal = await lockPortal(ctx.tx, portalId);
  checkAsked(portal, body);
  const email = body.email.toLowerCase();
  const existing = await liveRegistration(ctx, portal.id, email);
  if (existing) {
    if (existing.state === 'started') await sendConfirmation(ctx, mail, portal, existing);
    return resultOf(existing, true, await paymentLink(ctx, existing));
  }
  const counts = await liveRegistrationCounts(ctx.tx, [portal.id]);
  const now = ctx.clock.now();
  assertAvailable(unavailableOf(portal, counts.get(portal.id) ?? 0, isoDate(now)));
  const row = await insertRegistration(ctx, portal, {
    firstName: body.first_name,
    lastName: body.last_name,
    email,
    dob: portal.askDob === 'hidden' ? null : (body.dob ?? null),
    phone: portal.askPhone === 'hidden' ? null : (body.phone ?? null),
    subjectUserId: null,
  });
  await sendConfirmation(ctx, mail, portal, row);
  return resultOf(row, false);
}

async function insertRegistration(
  ctx: ServiceContext,
  portal: PortalRow,
  v: Pick<RegistrationRow, 'firstName' | 'lastName' | 'email' | 'dob' | 'phone' | 'subjectUserId'>,
): Promise<RegistrationRow> {
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(portalRegistrations)
    .values({
      customerId: portal.customerId,
      regPortalId: portal.id,
      processId: portal.processId,
      ...v,
      state: 'started',
      startedAt: now,
      expiresAt: new Date(now.getTime() + EXPIRY_MS),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new NotFoundError();
  await addEvent(ctx, row, 'started');
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'registered',
    contentType: REGISTRATION_CT,
    objectId: row.id,
    objectRepr: `${row.firstName} ${row.lastName}`,
    changes: { reg_portal: portal.id, email: row.email, state: 'started' },
    customerId: row.customerId,
  });
  return row;
}

/** The started registration of a confirmation token on the portal: 400 on `token` otherwise. */
export async function registrationOfToken(
  ctx: ServiceContext,
  portalId: number,
  token: string,
): Promise<RegistrationRow> {
  const [r] = await ctx.tx
    .select()
    .from(portalRegistrations)
    .where(
      and(
        eq(portalRegistrations.regPortalId, portalId),
        eq(portalRegistrations.tokenHash, hashToken(token)),
      ),
    )
    .limit(1)
    .for('update');
  const invalid = () => ValidationError.of('token', REGISTRATION_MESSAGES.invalidToken);
  if (!r) throw invalid();
  if (r.state !== 'started') throw invalid();
  if (r.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    throw ValidationError.of('token', REGISTRATION_MESSAGES.expired);
  }
  return r;
}

/** The login of a registration's person: found, or made without a password (first step). */
export async function loginOfRegistration(tx: Tx, r: RegistrationRow): Promise<number> {
  return subjectLoginFor(tx, {
    email: r.email,
    first_name: r.firstName,
    last_name: r.lastName,
    dob: r.dob ?? undefined,
    phone_number: r.phone ?? undefined,
  });
}

/** The customer's record of the person (by email), made when there is none. */
async function subjectOf(ctx: ServiceContext, r: RegistrationRow): Promise<SubjectRow> {
  const [s] = await ctx.tx
    .select({ id: subjects.id })
    .from(subjects)
    .where(and(eq(subjects.customerId, r.customerId), sql`lower(${subjects.email}) = ${r.email}`))
    .limit(1);
  if (s) return getSubject(ctx.tx, s.id);
  return insertSubject(ctx.tx, ctx.actor, r.customerId, {
    first_name: r.firstName,
    middlename: '',
    last_name: r.lastName,
    email: r.email,
    dob: r.dob ?? undefined,
    phone_number: r.phone ?? undefined,
  });
}

/** Opens the registration's case, once (the row is locked and must not have one). */
async function createCase(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  portal: PortalRow,
  r: RegistrationRow,
  subject: SubjectRow,
  paidBySubject: boolean,
): Promise<RegistrationRow> {
  if (r.caseId !== null) return r;
  const c = await openCase(
    ctx,
    mail,
    { process: portal.processId, subject: subject.id },
    { charge: !paidBySubject },
  );
  return moveRegistration(ctx, r, 'case_created', { caseId: c.id }, `Case ${c.id}`);
}

/**
 * After the email is confirmed (or the person was signed in): the subject's record linked, then
 * the case when the customer pays (or the subject's price is nothing), else the payment. Runs in
 * the portal's customer's tenant with the registration locked.
 */
export async function confirmAndProceed(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  r: RegistrationRow,
  loginId: number,
  startPayment: (ctx: ServiceContext, r: RegistrationRow, pence: number) => Promise<string | null>,
): Promise<RegistrationResultOut> {
  const portal = await portalOf(ctx.tx, r);
  const subject = await subjectOf(ctx, r);
  let row = await moveRegistration(ctx, r, 'email_confirmed', {
    emailConfirmedAt: ctx.clock.now(),
    tokenHash: null,
    subjectId: subject.id,
    subjectUserId: loginId,
  });
  if (portal.payer === 'subject') {
    const quote = await quoteProcess(ctx, r.customerId, portal.processId);
    if (quote.total_pence > 0) {
      row = await moveRegistration(ctx, row, 'awaiting_payment');
      const url = await startPayment(ctx, row, quote.total_pence);
      const [fresh] = await ctx.tx
        .select()
        .from(portalRegistrations)
        .where(
          and(
            eq(portalRegistrations.customerId, row.customerId),
            eq(portalRegistrations.id, row.id),
          ),
        );
      return resultOf(fresh ?? row, false, url);
    }
  }
  row = await createCase(ctx, mail, portal, row, subject, portal.payer === 'subject');
  return resultOf(row, false);
}

/**
 * The outcome of a registration's payment, in any transaction that may write registrations (the
 * payment webhook's, the system's): paid moves it from 'awaiting_payment' to 'paid' once (the
 * row locked) and returns true when the case is now to be opened (openPaidRegistrationCase, in
 * the customer's tenant: the registration-case job); declined leaves it awaiting payment (the
 * person may try again until it expires), with an event.
 */
export async function markRegistrationPaid(
  ctx: ServiceContext,
  registrationId: number,
  outcome: 'paid' | 'declined',
): Promise<boolean> {
  const r = await lockRegistration(ctx.tx, registrationId);
  if (r.state !== 'awaiting_payment') return false;
  if (outcome === 'declined') {
    await addEvent(ctx, r, r.state, 'The payment was declined.');
    return false;
  }
  await moveRegistration(ctx, r, 'paid');
  return true;
}

/**
 * Opens the case of a paid registration, exactly once (the row locked; only from 'paid' with no
 * case): not charged to the customer, the subject paid. In the customer's tenant.
 */
export async function openPaidRegistrationCase(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  registrationId: number,
): Promise<RegistrationRow> {
  const r = await lockRegistration(ctx.tx, registrationId);
  if (r.state !== 'paid' || r.caseId !== null) return r;
  const portal = await portalOf(ctx.tx, r);
  const subject = await subjectOf(ctx, r);
  return createCase(ctx, mail, portal, r, subject, true);
}

/** Both steps in one (customer's tenant) transaction: the tests' and the fixtures'. */
export async function settleRegistrationPayment(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  registrationId: number,
  outcome: 'paid' | 'declined',
): Promise<RegistrationRow> {
  await markRegistrationPaid(ctx, registrationId, outcome);
  return openPaidRegistrationCase(ctx, mail, registrationId);
}

/**
 * A signed-in subject's registration (/api/s/): their login's details; their live registration
 * on the portal answered again (a started one is confirmed now: signed in, the email is theirs);
 * otherwise a new one, confirmed at once, then the case or the payment.
 */
export async function registerSignedIn(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  portalId: number,
  login: {
    id: number;
    email: string;
    firstName: string;
    lastName: string;
    dob: string | null;
    phone: string;
  },
  paymentLink: PaymentLinkOf,
  startPayment: (ctx: ServiceContext, r: RegistrationRow, pence: number) => Promise<string | null>,
): Promise<RegistrationResultOut> {
  const portal = await lockPortal(ctx.tx, portalId);
  if (!login.firstName || !login.lastName || !login.email) {
    throw ValidationError.of('non_field_errors', REGISTRATION_MESSAGES.missingDetails);
  }
  const email = login.email.toLowerCase();
  const existing = await liveRegistration(ctx, portal.id, email);
  if (existing) {
    if (existing.state === 'started') {
      const out = await confirmAndProceed(ctx, mail, existing, login.id, startPayment);
      return { ...out, existing: true };
    }
    return resultOf(existing, true, await paymentLink(ctx, existing));
  }
  const counts = await liveRegistrationCounts(ctx.tx, [portal.id]);
  assertAvailable(unavailableOf(portal, counts.get(portal.id) ?? 0, isoDate(ctx.clock.now())));
  const row = await insertRegistration(ctx, portal, {
    firstName: login.firstName,
    lastName: login.lastName,
    email,
    dob: portal.askDob === 'hidden' ? null : login.dob,
    phone: portal.askPhone === 'hidden' || login.phone === '' ? null : login.phone,
    subjectUserId: login.id,
  });
  return confirmAndProceed(ctx, mail, row, login.id, startPayment);
}

// ---------------------------------------------------------------------------- expiry

/** Registrations expired per transaction by the expiry job. */
export const EXPIRY_BATCH = 100;

async function expireOne(ctx: ServiceContext, r: RegistrationRow): Promise<RegistrationRow> {
  return moveRegistration(
    ctx,
    r,
    'expired',
    { tokenHash: null },
    `Not completed within ${REGISTRATION_EXPIRY_HOURS} hours.`,
  );
}

/**
 * One batch of the customer's registrations past their expiry that never came to a case:
 * claimed with `skip locked`, each moved to 'expired' once (only from an open state) with its
 * event. Returns those expired (the caller cancels the payment intents of those that have one,
 * as the system: a tenant does not change intents).
 */
export async function expireBatch(ctx: ServiceContext, now: Date): Promise<RegistrationRow[]> {
  const rows = await ctx.tx
    .select()
    .from(portalRegistrations)
    .where(
      and(
        inArray(portalRegistrations.state, [...OPEN_STATES]),
        lte(portalRegistrations.expiresAt, now),
      ),
    )
    .orderBy(asc(portalRegistrations.expiresAt))
    .limit(EXPIRY_BATCH)
    .for('update', { skipLocked: true });
  const out: RegistrationRow[] = [];
  for (const r of rows) out.push(await expireOne(ctx, r));
  return out;
}

/** The customers with a registration to expire at `now` (the system's read, across them). */
export async function customersWithExpiry(tx: Tx, now: Date): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ id: portalRegistrations.customerId })
    .from(portalRegistrations)
    .where(
      and(
        inArray(portalRegistrations.state, [...OPEN_STATES]),
        lte(portalRegistrations.expiresAt, now),
      ),
    );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------- staff

const isState = (v: string): v is RegistrationState =>
  (REGISTRATION_STATES as readonly string[]).includes(v);

/** The list's filters (400 in the `{field: [msg]}` shape for a bad value). */
export function registrationFilters(query: unknown): SQL[] {
  const conds: SQL[] = [];
  const state = queryString(query, 'state');
  if (state !== undefined && state !== '') {
    const states = state.split(',');
    const bad = states.find((v) => !isState(v));
    if (bad !== undefined) throw ValidationError.invalidChoice('state', bad);
    conds.push(inArray(portalRegistrations.state, states.filter(isState)));
  }
  const portals = queryIds(query, 'reg_portal');
  if (portals) conds.push(inArray(portalRegistrations.regPortalId, portals));
  const procs = queryIds(query, 'process');
  if (procs) conds.push(inArray(portalRegistrations.processId, procs));
  const subjectIds = queryIds(query, 'subject');
  if (subjectIds) conds.push(inArray(portalRegistrations.subjectId, subjectIds));
  const q = queryString(query, 'q')?.trim();
  if (q) {
    if (q.length > 200)
      throw ValidationError.of('q', 'Ensure this field has no more than 200 characters.');
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const c = or(
      ilike(portalRegistrations.firstName, like),
      ilike(portalRegistrations.lastName, like),
      ilike(portalRegistrations.email, like),
      ilike(sql`${portalRegistrations.firstName} || ' ' || ${portalRegistrations.lastName}`, like),
    );
    if (c) conds.push(c);
  }
  const from = queryDate(query, 'started_from');
  if (from) conds.push(gte(portalRegistrations.startedAt, from));
  const to = queryDateEnd(query, 'started_to');
  if (to) conds.push(lt(portalRegistrations.startedAt, to));
  return conds;
}

function present(r: RegistrationRow, title: string): PortalRegistrationOut {
  return {
    id: r.id,
    reg_portal_id: r.regPortalId,
    portal_title: title,
    process_id: r.processId,
    subject_id: r.subjectId,
    first_name: r.firstName,
    last_name: r.lastName,
    email: r.email,
    dob: r.dob,
    phone: r.phone,
    state: r.state,
    started_at: r.startedAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    email_confirmed_at: r.emailConfirmedAt?.toISOString() ?? null,
    case_id: r.caseId,
    payment_intent_id: r.paymentIntentId,
  };
}

/** A page of the customer's registrations, newest first (RLS: its own; segments narrow it). */
export async function listRegistrations(
  ctx: ServiceContext,
  conds: SQL[],
  page: { pageSize: number; offset: number },
): Promise<{ count: number; results: PortalRegistrationOut[] }> {
  const where = and(...conds);
  const [total] = await ctx.tx
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(portalRegistrations)
    .where(where);
  const rows = await ctx.tx
    .select({ r: portalRegistrations, title: registrationPortals.title })
    .from(portalRegistrations)
    .innerJoin(
      registrationPortals,
      and(
        eq(registrationPortals.customerId, portalRegistrations.customerId),
        eq(registrationPortals.id, portalRegistrations.regPortalId),
      ),
    )
    .where(where)
    .orderBy(desc(portalRegistrations.startedAt), desc(portalRegistrations.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return { count: total?.n ?? 0, results: rows.map((x) => present(x.r, x.title)) };
}

export async function getRegistration(
  ctx: ServiceContext,
  id: number,
): Promise<PortalRegistrationDetailOut> {
  const [x] = await ctx.tx
    .select({ r: portalRegistrations, title: registrationPortals.title })
    .from(portalRegistrations)
    .innerJoin(
      registrationPortals,
      and(
        eq(registrationPortals.customerId, portalRegistrations.customerId),
        eq(registrationPortals.id, portalRegistrations.regPortalId),
      ),
    )
    .where(eq(portalRegistrations.id, id))
    .limit(1);
  if (!x) throw new NotFoundError();
  const events = await ctx.tx
    .select()
    .from(portalRegistrationEvents)
    .where(
      and(
        eq(portalRegistrationEvents.customerId, x.r.customerId),
        eq(portalRegistrationEvents.registrationId, x.r.id),
      ),
    )
    .orderBy(asc(portalRegistrationEvents.at), asc(portalRegistrationEvents.id));
  return {
    ...present(x.r, x.title),
    events: events.map((e) => ({ at: e.at.toISOString(), state: e.state, note: e.note })),
  };
}

/** Sends the confirmation again (a new link; the old one stops working): only while started. */
export async function resendConfirmation(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  id: number,
): Promise<void> {
  const r = await lockRegistration(ctx.tx, id);
  if (r.state !== 'started' || r.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    throw ValidationError.of('non_field_errors', REGISTRATION_MESSAGES.notStarted);
  }
  const portal = await portalOf(ctx.tx, r);
  await sendConfirmation(ctx, mail, portal, r);
  await addEvent(ctx, r, 'started', 'Confirmation sent again.');
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'invitation_sent',
    contentType: REGISTRATION_CT,
    objectId: r.id,
    objectRepr: `${r.firstName} ${r.lastName}`,
    changes: { to: r.email },
  });
}
