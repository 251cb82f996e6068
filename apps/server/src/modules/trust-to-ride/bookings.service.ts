import {
  readResultData,
  TRUST_TO_RIDE_MESSAGES,
  type TrustToRideAttendance,
  type TrustToRideBookingOut,
} from '@kestrel/domain';
import { and, asc, count, eq, inArray, notExists, notInArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { changeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { BOOKING_CT, bookingsWithSubjects, lockSession, sessionRef } from './sessions.service.js';
import { trustToRideBookings } from './trust-to-ride.table.js';

/*
 * Bookings of trust-to-ride sessions and their attendance. A place is booked for one open
 * trust-to-ride activity (by its subject from the portal, or by operations for them): the
 * session is locked first, so two bookings of its last place are taken one after the other and
 * the second is refused ('This session is full.'). The activity is in progress once booked and
 * complete once operations record its attendance.
 */

export const TRUST_TO_RIDE = 'trust-to-ride';
const CLOSED = ['ca-complete', 'ca-cancelled'];

/** The activity `id` if it is an open trust-to-ride activity (400 on `case_activity` otherwise). */
async function bookableActivity(tx: Tx, id: number) {
  const [a] = await tx
    .select({ row: caseActivities, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.id, id));
  if (!a) throw ValidationError.doesNotExist('case_activity', id);
  if (a.code !== TRUST_TO_RIDE || CLOSED.includes(a.row.state)) {
    throw ValidationError.of('case_activity', TRUST_TO_RIDE_MESSAGES.notBookable);
  }
  return a.row;
}

/**
 * Books a place on session `sessionId` for activity `activityId`: the session upcoming, of the
 * activity's customer and not full, the activity without a booking yet. Audited; the activity
 * moves to in progress with the session in its result.
 */
export async function bookPlace(
  ctx: ServiceContext,
  input: { session: number; case_activity: number },
): Promise<TrustToRideBookingOut> {
  const s = await lockSession(ctx.tx, input.session);
  if (!s) throw ValidationError.doesNotExist('session', input.session);
  const a = await bookableActivity(ctx.tx, input.case_activity);
  if (s.customerId !== a.customerId) {
    throw ValidationError.of('session', TRUST_TO_RIDE_MESSAGES.otherCustomer);
  }
  const now = ctx.clock.now();
  if (s.startsAt.getTime() <= now.getTime()) {
    throw ValidationError.of('session', TRUST_TO_RIDE_MESSAGES.past);
  }
  const [existing] = await ctx.tx
    .select({ id: trustToRideBookings.id })
    .from(trustToRideBookings)
    .where(eq(trustToRideBookings.caseActivityId, a.id));
  if (existing) throw ValidationError.of('case_activity', TRUST_TO_RIDE_MESSAGES.alreadyBooked);
  const [taken] = await ctx.tx
    .select({ n: count() })
    .from(trustToRideBookings)
    .where(
      and(
        eq(trustToRideBookings.customerId, s.customerId),
        eq(trustToRideBookings.sessionId, s.id),
      ),
    );
  if ((taken?.n ?? 0) >= s.capacity)
    throw ValidationError.of('session', TRUST_TO_RIDE_MESSAGES.full);
  const [b] = await ctx.tx
    .insert(trustToRideBookings)
    .values({
      customerId: s.customerId,
      sessionId: s.id,
      caseId: a.caseId,
      caseActivityId: a.id,
      bookedAt: now,
    })
    .returning();
  if (!b) throw new NotFoundError();
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: s.customerId,
    verb: 'created',
    contentType: BOOKING_CT,
    objectId: b.id,
    objectRepr: `Case ${a.caseId} trust to ride booking ${b.id}`,
    changes: { session: s.id, case_activity: a.id },
  });
  const before = readResultData(TRUST_TO_RIDE, a.resultData);
  await changeActivity(
    ctx.tx,
    ctx.actor,
    a.id,
    {
      state: a.state === 'ca-in-progress' ? undefined : 'ca-in-progress',
      result_data: {
        ...before,
        session: sessionRef(s),
        booked_at: now.toISOString(),
        attendance: null,
        recorded_at: null,
      },
    },
    now,
  );
  return bookingWithSubject(ctx.tx, b.id);
}

async function bookingWithSubject(tx: Tx, id: number): Promise<TrustToRideBookingOut> {
  const [found] = await bookingsWithSubjects(tx, eq(trustToRideBookings.id, id));
  if (!found) throw new NotFoundError();
  return found;
}

/**
 * Records whether the subject of booking `id` attended its session (once the session has
 * started, once only): audited, and the activity complete with 'attended' or 'did-not-attend'.
 */
export async function recordAttendance(
  ctx: ServiceContext,
  id: number,
  attendance: TrustToRideAttendance,
): Promise<TrustToRideBookingOut> {
  const [found] = await ctx.tx
    .select({ sessionId: trustToRideBookings.sessionId })
    .from(trustToRideBookings)
    .where(eq(trustToRideBookings.id, id));
  if (!found) throw new NotFoundError();
  const s = await lockSession(ctx.tx, found.sessionId);
  const [b] = await ctx.tx
    .select()
    .from(trustToRideBookings)
    .where(eq(trustToRideBookings.id, id))
    .for('update');
  if (!s || !b) throw new NotFoundError();
  const now = ctx.clock.now();
  if (s.startsAt.getTime() > now.getTime()) {
    throw ValidationError.of('attendance', TRUST_TO_RIDE_MESSAGES.notYet);
  }
  if (b.attendance !== null)
    throw ValidationError.of('attendance', TRUST_TO_RIDE_MESSAGES.recorded);
  await ctx.tx
    .update(trustToRideBookings)
    .set({ attendance, recordedAt: now })
    .where(eq(trustToRideBookings.id, id));
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: b.customerId,
    verb: 'updated',
    contentType: BOOKING_CT,
    objectId: id,
    objectRepr: `Case ${b.caseId} trust to ride booking ${id}`,
    changes: { attendance: [null, attendance] },
  });
  const [a] = await ctx.tx
    .select({ state: caseActivities.state, resultData: caseActivities.resultData })
    .from(caseActivities)
    .where(eq(caseActivities.id, b.caseActivityId));
  if (a && !CLOSED.includes(a.state)) {
    await changeActivity(
      ctx.tx,
      ctx.actor,
      b.caseActivityId,
      {
        state: 'ca-complete',
        result_data: {
          ...readResultData(TRUST_TO_RIDE, a.resultData),
          session: sessionRef(s),
          attendance,
          recorded_at: now.toISOString(),
        },
      },
      now,
    );
  }
  return bookingWithSubject(ctx.tx, id);
}

/** An open trust-to-ride activity without a booking, for operations to book a place for. */
export interface UnbookedActivity {
  id: number;
  case: number;
  customer: number;
  subject: { id: number; name: string; email: string };
}

/** The open trust-to-ride activities without a booking (of one customer, or all), oldest first. */
export async function unbookedActivities(
  tx: Tx,
  customer: number | null,
): Promise<UnbookedActivity[]> {
  // tied to the activity's customer (Citus joins only a customer's own rows: decision 023)
  const booked = tx
    .select({ id: trustToRideBookings.id })
    .from(trustToRideBookings)
    .where(
      and(
        eq(trustToRideBookings.customerId, caseActivities.customerId),
        eq(trustToRideBookings.caseActivityId, caseActivities.id),
      ),
    );
  const rows = await tx
    .select({
      id: caseActivities.id,
      caseId: caseActivities.caseId,
      customerId: caseActivities.customerId,
      subject: {
        id: subjects.id,
        first: subjects.firstName,
        last: subjects.lastName,
        email: subjects.email,
      },
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(
      and(
        eq(activityTypes.code, TRUST_TO_RIDE),
        notInArray(caseActivities.state, CLOSED),
        notExists(booked),
        ...(customer !== null ? [eq(caseActivities.customerId, customer)] : []),
      ),
    )
    .orderBy(asc(caseActivities.createdAt), asc(caseActivities.id))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    case: r.caseId,
    customer: r.customerId,
    subject: {
      id: r.subject.id,
      name: `${r.subject.first} ${r.subject.last}`.trim(),
      email: r.subject.email,
    },
  }));
}

/** The booking of trust-to-ride activity `activityId`, or null. */
export async function bookingOfActivity(tx: Tx, activityId: number) {
  const [b] = await tx
    .select({ id: trustToRideBookings.id })
    .from(trustToRideBookings)
    .where(inArray(trustToRideBookings.caseActivityId, [activityId]));
  return b ? bookingWithSubject(tx, b.id) : null;
}
