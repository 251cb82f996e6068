import {
  sessionDateTime,
  sessionStartsAt,
  TRUST_TO_RIDE_MESSAGES,
  type TrustToRideBookingOut,
  type TrustToRideSessionDetailOut,
  type TrustToRideSessionIn,
  type TrustToRideSessionOut,
  type TrustToRideSessionUpdate,
} from '@kestrel/domain';
import { and, asc, count, eq, gte, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { type OrderingRule, parseOrdering, totalColumn } from '../../platform/list-builder.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { changeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { trustToRideBookings, trustToRideSessions } from './trust-to-ride.table.js';

/*
 * Trust-to-ride sessions (operations, /ops/trust-2-ride): listed upcoming or past, added,
 * edited, and each with its attendance register. Every write is audited in its transaction.
 */

export const SESSION_CT = 'trust_to_ride.trusttoridesession';
export const BOOKING_CT = 'trust_to_ride.trusttoridebooking';

type SessionRow = typeof trustToRideSessions.$inferSelect;

const bookedCount = sql<number>`(select count(*) from ${trustToRideBookings} b
  where b.customer_id = ${trustToRideSessions.customerId}
    and b.session_id = ${trustToRideSessions.id})`.mapWith(Number);

export function sessionRef(s: Pick<SessionRow, 'id' | 'startsAt' | 'place'>) {
  return { id: s.id, ...sessionDateTime(s.startsAt), place: s.place };
}

function sessionOut(
  s: SessionRow,
  customer: { id: number; name: string },
  booked: number,
): TrustToRideSessionOut {
  return {
    id: s.id,
    customer,
    ...sessionDateTime(s.startsAt),
    starts_at: s.startsAt.toISOString(),
    place: s.place,
    capacity: s.capacity,
    booked,
    places_left: Math.max(0, s.capacity - booked),
  };
}

const sessionColumns = {
  s: trustToRideSessions,
  customer: { id: customers.id, name: customers.name },
  booked: bookedCount,
};

/** The sessions list's order: upcoming soonest first, past latest first; id the tiebreaker. */
const sessionOrdering = (when: 'upcoming' | 'past'): OrderingRule => ({
  fields: { starts_at: trustToRideSessions.startsAt },
  id: trustToRideSessions.id,
  fallback: when === 'upcoming' ? 'starts_at' : '-starts_at',
});

/**
 * One page of sessions: upcoming (soonest first) or past (latest first), of one customer or all;
 * the page and its total in one statement (the list builder's totalColumn).
 */
export async function listSessions(
  tx: Tx,
  q: { customer: number | null; when: 'upcoming' | 'past'; pageSize: number; offset: number },
  now: Date,
): Promise<{ count: number; results: TrustToRideSessionOut[] }> {
  const where = and(
    q.when === 'upcoming'
      ? gte(trustToRideSessions.startsAt, now)
      : lt(trustToRideSessions.startsAt, now),
    q.customer === null ? undefined : eq(trustToRideSessions.customerId, q.customer),
  );
  const total = tx.select({ n: count() }).from(trustToRideSessions).where(where);
  const rows = await tx
    .select({ ...sessionColumns, total: totalColumn(total) })
    .from(trustToRideSessions)
    .innerJoin(customers, eq(customers.id, trustToRideSessions.customerId))
    .where(where)
    .orderBy(...parseOrdering(undefined, sessionOrdering(q.when)).order)
    .limit(q.pageSize)
    .offset(q.offset);
  return {
    count: rows[0]?.total ?? 0,
    results: rows.map((r) => sessionOut(r.s, r.customer, r.booked)),
  };
}

/** The upcoming sessions of one customer with a place left (what a subject may book). */
export async function bookableSessions(
  tx: Tx,
  customerId: number,
  now: Date,
): Promise<TrustToRideSessionOut[]> {
  const rows = await tx
    .select(sessionColumns)
    .from(trustToRideSessions)
    .innerJoin(customers, eq(customers.id, trustToRideSessions.customerId))
    .where(
      and(eq(trustToRideSessions.customerId, customerId), gte(trustToRideSessions.startsAt, now)),
    )
    .orderBy(asc(trustToRideSessions.startsAt), asc(trustToRideSessions.id))
    .limit(50);
  return rows.map((r) => sessionOut(r.s, r.customer, r.booked)).filter((s) => s.places_left > 0);
}

/** Bookings with their subjects (the register's rows and a booking's answer), in booking order. */
export async function bookingsWithSubjects(
  tx: Tx,
  where: SQL | undefined,
): Promise<TrustToRideBookingOut[]> {
  const rows = await tx
    .select({
      b: trustToRideBookings,
      subject: {
        id: subjects.id,
        first: subjects.firstName,
        last: subjects.lastName,
        email: subjects.email,
      },
    })
    .from(trustToRideBookings)
    .innerJoin(
      cases,
      and(
        eq(cases.customerId, trustToRideBookings.customerId),
        eq(cases.id, trustToRideBookings.caseId),
      ),
    )
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(where)
    .orderBy(asc(trustToRideBookings.id));
  return rows.map((r) => bookingOut(r.b, r.subject));
}

/** A session's attendance register: its bookings with their subjects, in booking order. */
const registerOf = (tx: Tx, s: SessionRow) =>
  bookingsWithSubjects(
    tx,
    and(eq(trustToRideBookings.customerId, s.customerId), eq(trustToRideBookings.sessionId, s.id)),
  );

export function bookingOut(
  b: typeof trustToRideBookings.$inferSelect,
  s: { id: number; first: string; last: string; email: string },
): TrustToRideBookingOut {
  return {
    id: b.id,
    session: b.sessionId,
    case: b.caseId,
    case_activity: b.caseActivityId,
    subject: { id: s.id, name: `${s.first} ${s.last}`.trim(), email: s.email },
    booked_at: b.bookedAt.toISOString(),
    attendance:
      b.attendance === 'attended' || b.attendance === 'did-not-attend' ? b.attendance : null,
    recorded_at: b.recordedAt ? b.recordedAt.toISOString() : null,
  };
}

/** One session with its attendance register (404 when there is none). */
export async function sessionDetail(tx: Tx, id: number): Promise<TrustToRideSessionDetailOut> {
  const [r] = await tx
    .select(sessionColumns)
    .from(trustToRideSessions)
    .innerJoin(customers, eq(customers.id, trustToRideSessions.customerId))
    .where(eq(trustToRideSessions.id, id));
  if (!r) throw new NotFoundError();
  return { ...sessionOut(r.s, r.customer, r.booked), bookings: await registerOf(tx, r.s) };
}

/** Adds a session for a customer (400 on `customer` when there is no such customer). */
export async function createSession(
  ctx: ServiceContext,
  input: TrustToRideSessionIn,
): Promise<TrustToRideSessionDetailOut> {
  const [customer] = await ctx.tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, input.customer));
  if (!customer) throw ValidationError.doesNotExist('customer', input.customer);
  const now = ctx.clock.now();
  const [s] = await ctx.tx
    .insert(trustToRideSessions)
    .values({
      customerId: input.customer,
      startsAt: sessionStartsAt(input.date, input.time),
      place: input.place,
      capacity: input.capacity,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!s) throw new NotFoundError();
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: s.customerId,
    verb: 'created',
    contentType: SESSION_CT,
    objectId: s.id,
    objectRepr: `Trust to ride session ${s.id}`,
    changes: { date: input.date, time: input.time, place: s.place, capacity: s.capacity },
  });
  return sessionDetail(ctx.tx, s.id);
}

/** Locks session `id` (bookings of it wait for this transaction). */
export async function lockSession(tx: Tx, id: number): Promise<SessionRow | null> {
  const [s] = await tx
    .select()
    .from(trustToRideSessions)
    .where(eq(trustToRideSessions.id, id))
    .for('update');
  return s ?? null;
}

/**
 * Edits a session: its capacity never below the places booked; a new date, time or place goes
 * to the result of each booked activity whose attendance is not recorded yet.
 */
export async function updateSession(
  ctx: ServiceContext,
  id: number,
  input: TrustToRideSessionUpdate,
): Promise<TrustToRideSessionDetailOut> {
  const s = await lockSession(ctx.tx, id);
  if (!s) throw new NotFoundError();
  const [booked] = await ctx.tx
    .select({ n: count() })
    .from(trustToRideBookings)
    .where(
      and(eq(trustToRideBookings.customerId, s.customerId), eq(trustToRideBookings.sessionId, id)),
    );
  if (input.capacity < (booked?.n ?? 0)) {
    throw ValidationError.of('capacity', TRUST_TO_RIDE_MESSAGES.capacityBelowBooked);
  }
  const now = ctx.clock.now();
  const [updated] = await ctx.tx
    .update(trustToRideSessions)
    .set({
      startsAt: sessionStartsAt(input.date, input.time),
      place: input.place,
      capacity: input.capacity,
      updatedAt: now,
    })
    .where(eq(trustToRideSessions.id, id))
    .returning();
  if (!updated) throw new NotFoundError();
  const before = sessionRef(s);
  const after = sessionRef(updated);
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: s.customerId,
    verb: 'updated',
    contentType: SESSION_CT,
    objectId: id,
    objectRepr: `Trust to ride session ${id}`,
    changes: {
      ...(before.date !== after.date ? { date: [before.date, after.date] } : {}),
      ...(before.time !== after.time ? { time: [before.time, after.time] } : {}),
      ...(before.place !== after.place ? { place: [before.place, after.place] } : {}),
      ...(s.capacity !== updated.capacity ? { capacity: [s.capacity, updated.capacity] } : {}),
    },
  });
  if (before.date !== after.date || before.time !== after.time || before.place !== after.place) {
    const waiting = await ctx.tx
      .select({ activity: trustToRideBookings.caseActivityId, result: caseActivities.resultData })
      .from(trustToRideBookings)
      .innerJoin(caseActivities, eq(caseActivities.id, trustToRideBookings.caseActivityId))
      .where(
        and(
          eq(trustToRideBookings.customerId, s.customerId),
          eq(trustToRideBookings.sessionId, id),
          isNull(trustToRideBookings.attendance),
        ),
      )
      .orderBy(asc(trustToRideBookings.caseActivityId));
    for (const w of waiting) {
      await changeActivity(
        ctx.tx,
        ctx.actor,
        w.activity,
        { result_data: { ...w.result, session: after } },
        now,
      );
    }
  }
  return sessionDetail(ctx.tx, id);
}
