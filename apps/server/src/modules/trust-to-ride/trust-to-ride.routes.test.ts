// @postgres: two bookings of a session's last place at once: one wins (row locks)

import type { TrustToRideSessionDetailOut } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, createCustomer, login, type TestApp } from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { trustToRideBookings, trustToRideSessions } from './trust-to-ride.table.js';

/*
 * Trust-to-ride through the API (issue 27): operations manage sessions and their attendance
 * register at /api/ops/trust-to-ride/; a subject books a place from its case, or operations book
 * one for them; a full session refuses the booking (two for its last place: one wins); attendance
 * completes the activity.
 */

const DAY = 24 * 60 * 60 * 1000;
const world = kindsWorld({ customers: ['Globex'] });
const { call } = world;
let t: TestApp;
let acme: number;
let globex: number;
let admin: Client;
let ops: Client;
let viewerOps: Client;
let people = 0;
beforeAll(() => {
  ({ t, acme, admin, ops } = world);
  globex = world.customer('Globex');
  viewerOps = admin;
});

const dayFromNow = (days: number) =>
  new Date(t.clock.now().getTime() + days * DAY).toISOString().slice(0, 10);

async function newSession(customer = acme, capacity = 3, days = 3) {
  const res = await call(ops, 'POST', '/api/ops/trust-to-ride/sessions/', {
    customer,
    date: dayFromNow(days),
    time: '09:30',
    place: 'Depot, Unit 4',
    capacity,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TrustToRideSessionDetailOut;
}

/** A subject with a login and an open case asking for trust-to-ride. */
const subjectWithRide = (customerId = acme) =>
  world.subjectCase({
    requirements: ['trust-to-ride'],
    customerId,
    subject: {
      email: `rider-${++people}@example.test`,
      firstName: 'Rae',
      lastName: `Rider${people}`,
    },
    activityStates: ['ca-awaiting-ops'],
  });

// the file's admin (signed in again once the clock has moved days)
const activity = (id: number) => world.activity<Record<string, unknown>>(id, admin);

describe('trust-to-ride sessions (operations)', () => {
  it('adds, lists (upcoming and past, by customer), shows and edits a session, audited', async () => {
    const s = await newSession(acme, 4, 5);
    expect(s).toMatchObject({
      customer: { id: acme, name: 'Acme' },
      date: dayFromNow(5),
      time: '09:30',
      place: 'Depot, Unit 4',
      capacity: 4,
      booked: 0,
      places_left: 4,
      bookings: [],
    });
    await newSession(globex, 2, 6);
    const mine = await call(ops, 'GET', `/api/ops/trust-to-ride/sessions/?customer=${acme}`);
    expect(mine.statusCode).toBe(200);
    const page = mine.json();
    expect(page.results.every((r: { customer: { id: number } }) => r.customer.id === acme)).toBe(
      true,
    );
    expect(page.results.map((r: { id: number }) => r.id)).toContain(s.id);
    const all = await call(ops, 'GET', '/api/ops/trust-to-ride/sessions/?page_size=1');
    expect(all.json().count).toBeGreaterThanOrEqual(2);
    expect(all.json().results).toHaveLength(1);
    expect(all.json().next).toContain('page=2');
    const past = await call(ops, 'GET', '/api/ops/trust-to-ride/sessions/?when=past');
    expect(past.json().results.map((r: { id: number }) => r.id)).not.toContain(s.id);
    const edited = await call(ops, 'PUT', `/api/ops/trust-to-ride/sessions/${s.id}/`, {
      date: dayFromNow(7),
      time: '14:00',
      place: 'Council offices',
      capacity: 5,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ time: '14:00', place: 'Council offices', capacity: 5 });
    const got = await call(ops, 'GET', `/api/ops/trust-to-ride/sessions/${s.id}/`);
    expect(got.json().place).toBe('Council offices');
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'trust_to_ride.trusttoridesession'),
            eq(auditActions.objectId, String(s.id)),
          ),
        ),
    );
    expect(audit.map((a) => a.verb)).toEqual(['created', 'updated']);
    expect(audit[1]?.changes).toMatchObject({ time: ['09:30', '14:00'], capacity: [4, 5] });
  });

  it("pages a customer's sessions: upcoming soonest first, past latest first, the same start by id; count and links", async () => {
    const now = t.clock.now().getTime();
    const ids = await t.owner(async (tx) => {
      const initech = (await createCustomer(tx, { name: 'Initech' })).id;
      const at = async (offsetMs: number) => {
        const startsAt = new Date(now + offsetMs);
        const [row] = await tx
          .insert(trustToRideSessions)
          .values({
            customerId: initech,
            startsAt,
            place: 'Yard',
            capacity: 2,
            updatedAt: startsAt,
          })
          .returning({ id: trustToRideSessions.id });
        if (!row) throw new Error('no session');
        return row.id;
      };
      return {
        initech,
        later: await at(9 * DAY),
        soonA: await at(4 * DAY),
        soonB: await at(4 * DAY),
        longAgo: await at(-3 * DAY),
        recentA: await at(-DAY),
        recentB: await at(-DAY),
      };
    });
    const list = async (query: string) => {
      const res = await call(
        ops,
        'GET',
        `/api/ops/trust-to-ride/sessions/?customer=${ids.initech}&${query}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        count: number;
        next: string | null;
        previous: string | null;
        results: { id: number }[];
      };
    };
    const upcoming = await list('when=upcoming');
    expect(upcoming.count).toBe(3);
    expect(upcoming.results.map((r) => r.id)).toEqual([ids.soonA, ids.soonB, ids.later]);
    const past = await list('when=past');
    expect(past.count).toBe(3);
    expect(past.results.map((r) => r.id)).toEqual([ids.recentB, ids.recentA, ids.longAgo]);
    const second = await list('when=past&page_size=2&page=2');
    expect(second.count).toBe(3);
    expect(second.results.map((r) => r.id)).toEqual([ids.longAgo]);
    expect(second.next).toBeNull();
    expect(second.previous).toContain('page=1');
    const first = await list('page_size=2');
    expect(first.results.map((r) => r.id)).toEqual([ids.soonA, ids.soonB]);
    expect(first.next).toContain('page=2');
    expect(first.previous).toBeNull();
  });

  it('validates a session: required fields, formats, limits, an unknown customer', async () => {
    const empty = await call(ops, 'POST', '/api/ops/trust-to-ride/sessions/', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      customer: ['Required'],
      date: ['Required'],
      time: ['Required'],
      place: ['Required'],
      capacity: ['Required'],
    });
    const bad = await call(ops, 'POST', '/api/ops/trust-to-ride/sessions/', {
      customer: 999_999,
      date: '2026-13',
      time: '25:00',
      place: ' ',
      capacity: 0,
    });
    expect(bad.json()).toMatchObject({
      date: ['Invalid format'],
      time: ['Invalid time'],
      place: ['Required'],
      capacity: ['At least 1 place'],
    });
    const nobody = await call(ops, 'POST', '/api/ops/trust-to-ride/sessions/', {
      customer: 999_999,
      date: dayFromNow(2),
      time: '10:00',
      place: 'Depot',
      capacity: 2,
    });
    expect(nobody.statusCode).toBe(400);
    expect(Object.keys(nobody.json())).toEqual(['customer']);
    expect((await call(ops, 'GET', '/api/ops/trust-to-ride/sessions/999999/')).statusCode).toBe(
      404,
    );
  });

  it('is for operations only (customer staff and subjects: 403)', async () => {
    const s = await newSession();
    const k = await subjectWithRide();
    for (const c of [viewerOps, k.subject]) {
      expect((await call(c, 'GET', '/api/ops/trust-to-ride/sessions/')).statusCode).toBe(403);
      expect((await call(c, 'GET', `/api/ops/trust-to-ride/sessions/${s.id}/`)).statusCode).toBe(
        403,
      );
      const add = await call(c, 'POST', '/api/ops/trust-to-ride/bookings/', {
        session: s.id,
        case_activity: k.activityId,
      });
      expect(add.statusCode).toBe(403);
    }
  });
});

describe('bookings and attendance', () => {
  it('operations book a place: in progress with the session; the register lists it', async () => {
    const s = await newSession(acme, 2, 4);
    const k = await subjectWithRide();
    const open = await call(
      ops,
      'GET',
      `/api/ops/trust-to-ride/unbooked-activities/?customer=${acme}`,
    );
    expect(open.json().results.map((r: { id: number }) => r.id)).toContain(k.activityId);
    const res = await call(ops, 'POST', '/api/ops/trust-to-ride/bookings/', {
      session: s.id,
      case_activity: k.activityId,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      case: k.caseId,
      attendance: null,
      subject: { email: k.email },
    });
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.result_data).toMatchObject({
      session: { id: s.id, time: '09:30', place: 'Depot, Unit 4' },
    });
    const reg = (await call(ops, 'GET', `/api/ops/trust-to-ride/sessions/${s.id}/`)).json();
    expect(reg).toMatchObject({ booked: 1, places_left: 1 });
    expect(reg.bookings[0]).toMatchObject({ case_activity: k.activityId });
    // once only; not an activity of another kind or customer
    const again = await call(ops, 'POST', '/api/ops/trust-to-ride/bookings/', {
      session: s.id,
      case_activity: k.activityId,
    });
    expect(again.json()).toEqual({
      case_activity: ['A place is already booked for this trust-to-ride.'],
    });
    const theirs = await subjectWithRide(globex);
    const cross = await call(ops, 'POST', '/api/ops/trust-to-ride/bookings/', {
      session: s.id,
      case_activity: theirs.activityId,
    });
    expect(cross.json()).toEqual({
      session: ['The session and the activity belong to different customers.'],
    });
  });

  it('refuses a full session; two bookings of the last place: one wins', async () => {
    const s = await newSession(acme, 1, 4);
    const [a, b] = [await subjectWithRide(), await subjectWithRide()];
    const both = await Promise.all(
      [a, b].map((k) =>
        call(k.subject, 'POST', `/api/s/trust-to-ride/activities/${k.activityId}/booking/`, {
          session: s.id,
        }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const refused = both.find((r) => r.statusCode === 400);
    expect(refused?.json()).toEqual({ session: ['This session is full.'] });
    const rows = await t.owner((tx) =>
      tx.select().from(trustToRideBookings).where(eq(trustToRideBookings.sessionId, s.id)),
    );
    expect(rows).toHaveLength(1);
    // the session no longer offered to a subject; capacity not below what is booked
    const view = await call(b.subject, 'GET', `/api/s/trust-to-ride/activities/${b.activityId}/`);
    expect(view.json().sessions.map((x: { id: number }) => x.id)).not.toContain(s.id);
    const shrink = await call(ops, 'PUT', `/api/ops/trust-to-ride/sessions/${s.id}/`, {
      date: s.date,
      time: s.time,
      place: s.place,
      capacity: 1,
    });
    expect(shrink.statusCode).toBe(200);
  });

  it('a subject sees and books only its own case; a past session is refused', async () => {
    const s = await newSession(acme, 5, 2);
    const k = await subjectWithRide();
    const other = await subjectWithRide();
    const view = await call(k.subject, 'GET', `/api/s/trust-to-ride/activities/${k.activityId}/`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({ state: 'ca-awaiting-ops', result_data: {} });
    expect(view.json().sessions.map((x: { id: number }) => x.id)).toContain(s.id);
    const notMine = await call(
      k.subject,
      'GET',
      `/api/s/trust-to-ride/activities/${other.activityId}/`,
    );
    expect(notMine.statusCode).toBe(404);
    const bookOther = await call(
      k.subject,
      'POST',
      `/api/s/trust-to-ride/activities/${other.activityId}/booking/`,
      { session: s.id },
    );
    expect(bookOther.statusCode).toBe(404);
    const staff = await call(admin, 'GET', `/api/s/trust-to-ride/activities/${k.activityId}/`);
    expect(staff.statusCode).toBe(403);
    const booked = await call(
      k.subject,
      'POST',
      `/api/s/trust-to-ride/activities/${k.activityId}/booking/`,
      {
        session: s.id,
      },
    );
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.json()).toMatchObject({
      state: 'ca-in-progress',
      result_data: { session: { id: s.id } },
    });
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.contentType, 'trust_to_ride.trusttoridebooking')),
    );
    expect(audit.some((r) => r.actorType === 'SubjectUser' && r.verb === 'created')).toBe(true);
    t.clock.advance(3 * DAY);
    // sessions do not last days: sign in again
    ops = await login(t.app, 'ops@k.test');
    admin = await login(t.app, 'admin@acme.test');
    const late = await call(
      await login(t.app, other.email),
      'POST',
      `/api/s/trust-to-ride/activities/${other.activityId}/booking/`,
      {
        session: s.id,
      },
    );
    expect(late.json()).toEqual({ session: ['This session has already taken place.'] });
  });

  it('records attendance once the session started: attended or did not attend, complete', async () => {
    const s = await newSession(acme, 3, 1);
    const [a, b] = [await subjectWithRide(), await subjectWithRide()];
    const ids: number[] = [];
    for (const k of [a, b]) {
      const res = await call(ops, 'POST', '/api/ops/trust-to-ride/bookings/', {
        session: s.id,
        case_activity: k.activityId,
      });
      ids.push(res.json().id);
    }
    const url = (id: number | undefined) => `/api/ops/trust-to-ride/bookings/${id}/attendance/`;
    const early = await call(ops, 'POST', url(ids[0]), { attendance: 'attended' });
    expect(early.json()).toEqual({
      attendance: ['Attendance can be recorded once the session has started.'],
    });
    t.clock.advance(2 * DAY);
    ops = await login(t.app, 'ops@k.test');
    admin = await login(t.app, 'admin@acme.test');
    expect((await call(ops, 'POST', url(ids[0]), {})).json()).toEqual({ attendance: ['Required'] });
    expect((await call(admin, 'POST', url(ids[0]), { attendance: 'attended' })).statusCode).toBe(
      403,
    );
    const went = await call(ops, 'POST', url(ids[0]), { attendance: 'attended' });
    expect(went.statusCode, went.body).toBe(200);
    expect(went.json()).toMatchObject({ attendance: 'attended' });
    const missed = await call(ops, 'POST', url(ids[1]), { attendance: 'did-not-attend' });
    expect(missed.statusCode).toBe(200);
    expect(await activity(a.activityId)).toMatchObject({
      state: 'ca-complete',
      result_data: { attendance: 'attended', session: { id: s.id } },
    });
    expect((await activity(b.activityId)).result_data).toMatchObject({
      attendance: 'did-not-attend',
    });
    const c = await call(admin, 'GET', `/api/cases/${b.caseId}/`);
    expect(c.json().state).toBe('pending-case-decision');
    const twice = await call(ops, 'POST', url(ids[0]), { attendance: 'did-not-attend' });
    expect(twice.json()).toEqual({ attendance: ['Attendance has already been recorded.'] });
    expect((await call(ops, 'POST', url(999_999), { attendance: 'attended' })).statusCode).toBe(
      404,
    );
  });
});
