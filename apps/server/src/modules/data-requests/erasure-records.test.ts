// @postgres: the erasure's owner-run scrub (jsonb keys, arrays cast to text[]) and the reminders' job over node-postgres
import { ERASED_TEXT, ERASURE_CASE_REASON } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureWorld } from '../../../test/erasure-world.js';
import {
  type Client,
  createCase,
  createCustomer,
  createFlag,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities, caseActivityNotes } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { flags } from '../flags/flags.table.js';
import {
  licenceDefinitions,
  licenceEvents,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from '../lms/lms.table.js';
import { lmsApplicationEvents, lmsApplications } from '../lms/lms-applications.table.js';
import { processes } from '../processes/processes.table.js';
import { caseInvitations, caseReminders } from '../reminders/reminders.table.js';
import { runRemindersDue } from '../reminders/reminders-due-job.js';
import { ERASED_NAME } from '../subjects/merged.js';
import { trustToRideBookings, trustToRideSessions } from '../trust-to-ride/trust-to-ride.table.js';

// Issue 34, what an erasure left: (1) the free text staff wrote about the person (notes, flags,
// decision notes) and licensing records' details beyond the register; (2) the subject's open case
// stayed awaiting the subject, with reminders still sent; (3) the audit rows of no customer kept
// the person's name as the actor's.

let t: TestApp;
let acme: number;
let admin: Client;
const DAY = 86_400_000;

const send = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method,
    url,
    headers: admin.headers,
    ...(payload === undefined ? {} : { payload }),
  });

/** Records and approves an erasure of `subjectId` (signed in afresh: the clock moves); the decided request. */
async function erase(subjectId: number) {
  admin = await login(t.app, 'admin@acme.test');
  const req = await send('POST', '/api/erasure-requests/', { subject: subjectId });
  expect(req.statusCode, req.body).toBe(201);
  const res = await send('POST', `/api/erasure-requests/${req.json().id}/decide/`, {
    decision: 'approve',
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.settle();
  return res.json();
}

/** Every row of `table` of customer `acme` as lower-case text. */
const rowsText = (table: string) =>
  t.owner(async (tx) =>
    (
      await tx.execute<{ row: string }>(
        sql`select lower(row_to_json(x)::text) as row from ${sql.identifier(table)} x
          where x.customer_id = ${acme}`,
      )
    ).map((r) => r.row),
  );

beforeAll(async () => {
  ({ t, acme, admin } = await erasureWorld());
});
afterAll(() => t?.close());

describe('an erasure closes the subject’s open cases', () => {
  it('cancels the case awaiting the subject with an audited reason, and no reminder follows', async () => {
    const { caseId, doneId, subjectId } = await t.owner(async (tx) => {
      const p = await createProcess(tx, {
        customerId: acme,
        requirements: ['basic-details', 'dbs-basic'],
      });
      await tx
        .update(processes)
        .set({ reminderSchedule: { daily_days: 2, then_every_days: 7, max_reminders: 3 } })
        .where(eq(processes.id, p.id));
      const s = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Rowena',
        lastName: 'Remindme',
        email: 'rowena.remindme@example.test',
      });
      const open = await createCase(tx, {
        customerId: acme,
        processId: p.id,
        subjectId: s.id,
        createdAt: t.clock.now(),
      });
      const done = await createCase(tx, {
        customerId: acme,
        processId: p.id,
        subjectId: s.id,
        activityStates: ['ca-complete'],
        state: 'complete',
      });
      return { caseId: open.id, doneId: done.id, subjectId: s.id };
    });
    const remindersOf = () =>
      t.owner((tx) => tx.select().from(caseReminders).where(eq(caseReminders.caseId, caseId)));
    // before: the case is reminded as its process says
    t.clock.advance(DAY + 60_000);
    await runRemindersDue(t.app.deps, acme);
    expect(await remindersOf()).toHaveLength(1);

    const decided = await erase(subjectId);
    expect(decided.outcome.removed).toMatchObject({ cases_closed: 1 });
    const detail = await send('GET', `/api/cases/${caseId}/`);
    expect(detail.json()).toMatchObject({
      state: 'cancelled',
      cancelled_reason: ERASURE_CASE_REASON,
    });
    const states = await t.owner((tx) =>
      tx
        .select({ state: caseActivities.state })
        .from(caseActivities)
        .where(eq(caseActivities.caseId, caseId)),
    );
    expect(states.map((a) => a.state)).toEqual(['ca-cancelled', 'ca-cancelled']);
    // the completed case stays as decided
    const [done] = await t.owner((tx) => tx.select().from(cases).where(eq(cases.id, doneId)));
    expect(done?.state).toBe('complete');
    // audited with the reason, naming no one
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.case'),
            eq(auditActions.objectId, String(caseId)),
            eq(auditActions.verb, 'cancelled'),
          ),
        ),
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]?.changes).toMatchObject({
      state: ['awaiting-subject', 'cancelled'],
      reason: ERASURE_CASE_REASON,
    });
    expect(audits[0]?.objectRepr).not.toContain('Remindme');

    // the clock moves on past every reminder the schedule had: none is sent
    for (let day = 0; day < 20; day += 1) {
      t.clock.advance(DAY);
      await runRemindersDue(t.app.deps, acme);
    }
    expect(await remindersOf()).toHaveLength(1);
    // sending one by hand is refused too (the case no longer awaits the subject)
    const byHand = await send('POST', `/api/cases/${caseId}/send-reminder/`, {});
    expect(byHand.statusCode).toBeGreaterThanOrEqual(400);
    expect(byHand.statusCode).toBeLessThan(500);
    expect(await remindersOf()).toHaveLength(1);
  });
});

describe('an erasure removes the free text about the person and keeps the registers', () => {
  it('blanks notes, flags and decision notes; keeps a licence’s number, status and reasons', async () => {
    const now = t.clock.now();
    const ids = await t.owner(async (tx) => {
      const s = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Zebedee',
        lastName: 'Quillfeather',
        email: 'zebedee.quillfeather@example.test',
      });
      const p = await createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] });
      const c = await createCase(tx, {
        customerId: acme,
        processId: p.id,
        subjectId: s.id,
        activityStates: ['ca-complete'],
      });
      await tx
        .update(cases)
        .set({ decisionNotes: 'Quillfeather explained the 2009 caution' })
        .where(eq(cases.id, c.id));
      const [a] = await tx
        .update(caseActivities)
        .set({ notes: 'Quillfeather phoned about his address' })
        .where(eq(caseActivities.caseId, c.id))
        .returning();
      await tx.insert(caseActivityNotes).values({
        customerId: acme,
        caseId: c.id,
        caseActivityId: a?.id ?? 0,
        authorFirstName: 'Olive',
        authorLastName: 'Ops',
        description: 'Quillfeather phoned about his address',
      });
      const flagOnRecord = await createFlag(tx, {
        customerId: acme,
        subjectId: s.id,
        message: 'Quillfeather is known to us',
      });
      const flagOnCase = await createFlag(tx, {
        customerId: acme,
        caseId: c.id,
        message: 'Check Quillfeather again',
      });
      await tx
        .update(flags)
        .set({ active: false, resolutionComment: 'Quillfeather cleared' })
        .where(eq(flags.id, flagOnCase.id));
      // invitations and reminders, a trust-to-ride booking: the record of what was done
      await tx.insert(caseInvitations).values({ customerId: acme, caseId: c.id, invitedAt: now });
      await tx.insert(caseReminders).values({
        customerId: acme,
        caseId: c.id,
        round: 0,
        number: 1,
        channels: 'email',
        sentAt: now,
      });
      const [session] = await tx
        .insert(trustToRideSessions)
        .values({ customerId: acme, startsAt: now, place: 'Depot', capacity: 5 })
        .returning();
      await tx.insert(trustToRideBookings).values({
        customerId: acme,
        sessionId: session?.id ?? 0,
        caseId: c.id,
        caseActivityId: a?.id ?? 0,
        attendance: 'attended',
        recordedAt: now,
      });
      // licensing: a refused application and a revoked licence
      const [g] = await tx
        .insert(licenceGroups)
        .values({ customerId: acme, name: 'Taxis' })
        .returning();
      const [sg] = await tx
        .insert(licenceSubGroups)
        .values({ customerId: acme, groupId: g?.id ?? 0, name: 'Drivers', code: 'HCD' })
        .returning();
      const [d] = await tx
        .insert(licenceDefinitions)
        .values({
          customerId: acme,
          subGroupId: sg?.id ?? 0,
          name: 'Driver',
          durationYears: 3,
          feePence: 0,
        })
        .returning();
      const [portal] = await tx
        .insert(lmsApplicationPortals)
        .values({ customerId: acme, definitionId: d?.id ?? 0, title: 'Apply', feePence: 0 })
        .returning();
      const [app] = await tx
        .insert(lmsApplications)
        .values({
          customerId: acme,
          portalId: portal?.id ?? 0,
          definitionId: d?.id ?? 0,
          subjectId: s.id,
          kind: 'new',
          state: 'refused',
          feePence: 0,
          taxCheckNeed: 'code',
          taxCheckCode: 'ABC123XYZ',
          taxCheckMessage: 'Code of Z Quillfeather confirmed',
          infoRequest: 'Mr Quillfeather, send your badge',
          decisionReason: 'Failed the knowledge test',
          decidedAt: now,
        })
        .returning();
      const appId = app?.id ?? 0;
      const events = [
        {
          action: 'apply',
          toState: 'in_progress' as const,
          message: '',
          actorName: 'Zebedee Quillfeather',
        },
        {
          action: 'respond',
          toState: 'in_progress' as const,
          message: 'Here is my badge, Zebedee',
          actorName: 'Zebedee Quillfeather',
        },
        {
          action: 'refuse',
          toState: 'refused' as const,
          message: 'Failed the knowledge test',
          actorName: 'Lena Licensing',
          actorId: 1,
        },
      ];
      for (const e of events) {
        await tx
          .insert(lmsApplicationEvents)
          .values({ customerId: acme, applicationId: appId, ...e });
      }
      await tx.insert(auditActions).values({
        customerId: acme,
        verb: 'updated',
        contentType: 'lms_licences.application',
        objectId: String(appId),
        objectRepr: `Application ${appId}`,
        changes: { state: ['more_info_requested', 'in_progress'], response: 'Zebedee here' },
      });
      const [licence] = await tx
        .insert(licences)
        .values({
          customerId: acme,
          definitionId: d?.id ?? 0,
          holderId: s.id,
          number: 'HCD/2026/77',
          status: 'revoked',
          issueDate: '2026-01-01',
          expiryDate: '2029-01-01',
          conditions: 'Quillfeather to drive only the grey cab',
        })
        .returning();
      // the licence's audit rows as the service writes them (presentLicence's copy)
      await tx.insert(auditActions).values([
        {
          customerId: acme,
          verb: 'created',
          contentType: 'lms_licences.licence',
          objectId: String(licence?.id ?? 0),
          objectRepr: 'HCD/2026/77',
          changes: {
            number: 'HCD/2026/77',
            holder: s.id,
            holder_name: 'Zebedee Quillfeather',
            holder_dob: '1979-02-03',
            conditions: 'Quillfeather to drive only the grey cab',
            status: 'active',
          },
        },
        {
          customerId: acme,
          verb: 'updated',
          contentType: 'lms_licences.licence',
          objectId: String(licence?.id ?? 0),
          objectRepr: 'HCD/2026/77',
          changes: {
            status: ['active', 'revoked'],
            action: 'revoke',
            reason: 'Convicted of a driving offence',
          },
        },
      ]);
      await tx.insert(licenceEvents).values({
        customerId: acme,
        licenceId: licence?.id ?? 0,
        action: 'revoke',
        fromStatus: 'active',
        toStatus: 'revoked',
        reason: 'Convicted of a driving offence',
        actorName: 'Lena Licensing',
      });
      return {
        subjectId: s.id,
        caseId: c.id,
        activityId: a?.id ?? 0,
        flagIds: [flagOnRecord.id, flagOnCase.id],
        appId,
        licenceId: licence?.id ?? 0,
      };
    });

    const decided = await erase(ids.subjectId);
    expect(decided.outcome.removed).toMatchObject({
      activity_notes: 1,
      decision_notes: 1,
      flags: 2,
      lms_applications: 1,
      licences: 1,
    });
    // no copy of the name left in these tables
    for (const table of [
      'cases',
      'case_activities',
      'case_activity_notes',
      'flags',
      'lms_applications',
      'lms_application_events',
      'licences',
      'licence_events',
      'audit_actions',
    ]) {
      const found = (await rowsText(table)).filter((r) => /quillfeather|zebedee/.test(r));
      expect([table, found]).toEqual([table, []]);
    }
    const [note] = await t.owner((tx) =>
      tx
        .select()
        .from(caseActivityNotes)
        .where(eq(caseActivityNotes.caseActivityId, ids.activityId)),
    );
    expect(note).toMatchObject({ description: ERASED_TEXT, authorFirstName: 'Olive' });
    const flagRows = await t.owner((tx) =>
      tx.execute<{ message: string; resolution_comment: string; active: boolean }>(
        sql`select message, resolution_comment, active from flags
          where customer_id = ${acme} and id in (${ids.flagIds[0] ?? 0}, ${ids.flagIds[1] ?? 0})
          order by id`,
      ),
    );
    expect(flagRows).toEqual([
      { message: ERASED_TEXT, resolution_comment: '', active: true },
      { message: ERASED_TEXT, resolution_comment: ERASED_TEXT, active: false },
    ]);
    // the register: the refusal and its reason, the licence's number, dates, status and reason
    const [app] = await t.owner((tx) =>
      tx.select().from(lmsApplications).where(eq(lmsApplications.id, ids.appId)),
    );
    expect(app).toMatchObject({
      state: 'refused',
      decisionReason: 'Failed the knowledge test',
      taxCheckCode: null,
      taxCheckMessage: '',
      infoRequest: null,
    });
    const trail = await t.owner((tx) =>
      tx
        .select()
        .from(lmsApplicationEvents)
        .where(eq(lmsApplicationEvents.applicationId, ids.appId))
        .orderBy(lmsApplicationEvents.id),
    );
    expect(trail.map((e) => [e.action, e.message, e.actorName])).toEqual([
      ['apply', '', ERASED_NAME],
      ['respond', ERASED_TEXT, ERASED_NAME],
      ['refuse', 'Failed the knowledge test', 'Lena Licensing'],
    ]);
    const [licence] = await t.owner((tx) =>
      tx.select().from(licences).where(eq(licences.id, ids.licenceId)),
    );
    expect(licence).toMatchObject({
      number: 'HCD/2026/77',
      status: 'revoked',
      issueDate: '2026-01-01',
      expiryDate: '2029-01-01',
      conditions: '',
    });
    const licenceAudits = await t.owner((tx) =>
      tx
        .select({ changes: auditActions.changes })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'lms_licences.licence'),
            eq(auditActions.objectId, String(ids.licenceId)),
          ),
        )
        .orderBy(auditActions.id),
    );
    expect(licenceAudits.map((a) => a.changes)).toEqual([
      {
        number: 'HCD/2026/77',
        holder: ids.subjectId,
        status: 'active',
        redacted: 'erasure',
      },
      { status: ['active', 'revoked'], action: 'revoke', reason: 'Convicted of a driving offence' },
    ]);
    const [revoked] = await t.owner((tx) =>
      tx.select().from(licenceEvents).where(eq(licenceEvents.licenceId, ids.licenceId)),
    );
    expect(revoked).toMatchObject({
      reason: 'Convicted of a driving offence',
      toStatus: 'revoked',
    });
    // invitations, reminders and the booking stay: when, how, attended
    const kept = await t.owner(async (tx) => ({
      invitations: await tx
        .select()
        .from(caseInvitations)
        .where(eq(caseInvitations.caseId, ids.caseId)),
      reminders: await tx.select().from(caseReminders).where(eq(caseReminders.caseId, ids.caseId)),
      bookings: await tx
        .select()
        .from(trustToRideBookings)
        .where(eq(trustToRideBookings.caseId, ids.caseId)),
    }));
    expect(kept.invitations).toHaveLength(1);
    expect(kept.reminders.map((r) => r.channels)).toEqual(['email']);
    expect(kept.bookings.map((b) => b.attendance)).toEqual(['attended']);
  });
});

describe('an erasure scrubs the audit rows of no customer', () => {
  it('renames the erased person where they acted before a customer was known, and no one else', async () => {
    const other = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Other' })).id);
    const people = await t.owner(async (tx) => {
      const erased = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Ulrika',
        lastName: 'Nocustomer',
        email: 'ulrika.nocustomer@example.test',
      });
      const bystander = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Bertram',
        lastName: 'Bystander',
        email: 'bertram.bystander@example.test',
      });
      // a person held by two customers: erased at one, still held at the other
      const shared = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Sigrid',
        lastName: 'Twoplaces',
        email: 'sigrid.twoplaces@example.test',
      });
      await createSubjectUser(tx, {
        customerId: other,
        firstName: 'Sigrid',
        lastName: 'Twoplaces',
        email: 'sigrid.twoplaces@example.test',
      });
      for (const p of [erased, bystander, shared]) {
        const name = `${p.firstName} ${p.lastName}`;
        await tx.insert(auditActions).values([
          {
            customerId: null,
            actorType: 'SubjectUser',
            actorId: p.userId,
            actorName: name,
            verb: 'logged_in',
          },
          {
            customerId: null,
            actorType: 'SubjectUser',
            actorId: p.userId,
            actorName: name,
            verb: 'registered',
            contentType: 'users.subjectuser',
            objectId: String(p.userId),
            objectRepr: p.email,
          },
        ]);
      }
      return { erased, bystander, shared };
    });
    await erase(people.erased.id);
    await erase(people.shared.id);
    const rowsOf = (login: number) =>
      t.owner((tx) =>
        tx.execute<{ actor_name: string; object_repr: string }>(sql`
          select actor_name, object_repr from audit_actions
          where customer_id is null and actor_id = ${login} order by id`),
      );
    expect(await rowsOf(people.erased.userId)).toEqual([
      { actor_name: ERASED_NAME, object_repr: '' },
      { actor_name: ERASED_NAME, object_repr: `Sign-in ${people.erased.userId}` },
    ]);
    expect(await rowsOf(people.bystander.userId)).toEqual([
      { actor_name: 'Bertram Bystander', object_repr: '' },
      { actor_name: 'Bertram Bystander', object_repr: 'bertram.bystander@example.test' },
    ]);
    // still the other customer's subject: the sign-in and its rows are not this erasure's
    expect(await rowsOf(people.shared.userId)).toEqual([
      { actor_name: 'Sigrid Twoplaces', object_repr: '' },
      { actor_name: 'Sigrid Twoplaces', object_repr: 'sigrid.twoplaces@example.test' },
    ]);
  });
});
