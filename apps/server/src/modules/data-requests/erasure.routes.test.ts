import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseAddress, createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { caseAddresses, caseBasicDetails } from '../case-data/case-data.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { cases } from '../cases/cases.table.js';
import { checkCallbackInbox } from '../checks/callbacks.table.js';
import { createPayment, createPaymentIntent } from '../payments/payments.factories.js';
import { payments } from '../payments/payments.table.js';
import { caseRetention } from '../retention/retention.table.js';
import { runRetentionDue } from '../retention/retention-job.js';
import { segments } from '../segments/segments.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import { SUBJECT_ALREADY_ASKED } from './erasure.routes.js';
import { LEGAL_HOLD_DETAIL, PENDING_DETAIL, REASON_REQUIRED } from './erasure.service.js';
import { ERASURE_REQUEST_CT } from './erasure-requests.table.js';

let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let otherAdmin: Client;

const send = (client: Client, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

/** The verbs of the audit entries about one object, oldest first. */
const verbsOf = (contentType: string, objectId: number) =>
  t.owner(async (tx) =>
    (
      await tx
        .select({ verb: auditActions.verb })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, contentType),
            eq(auditActions.objectId, String(objectId)),
          ),
        )
        .orderBy(auditActions.id)
    ).map((a) => a.verb),
  );

interface Person {
  id: number;
  email: string;
  caseId: number;
  activityId: number;
  pageKeys: string[];
}

/** A subject with a complete case: details, an address, a document, a result and a payment. */
async function person(customerId: number, first: string): Promise<Person> {
  return t.owner(async (tx) => {
    const email = `${first.toLowerCase()}@example.test`;
    const s = await createSubjectUser(tx, { customerId, firstName: first, lastName: 'Doe', email });
    const process = await createProcess(tx, { customerId, requirements: ['dbs-basic'] });
    const c = await createCase(tx, {
      customerId,
      processId: process.id,
      subjectId: s.id,
      activityStates: ['ca-complete'],
    });
    const key = { customerId, caseId: c.id };
    await createCaseBasicDetails(tx, key, { forename: first, surname: 'Doe', dob: '1980-01-01' });
    await createCaseAddress(tx, key, {});
    const doc = await createCaseDocument(tx, t.app.deps.storage, key);
    const [activity] = await tx
      .update(caseActivities)
      .set({
        resultData: {
          application: { reference: 'APP-1', status: 'complete', applicant_name: 'Jo Doe' },
          disclosure: { status: 'clear', certificate_number: '001234567890', content: 'None' },
        },
      })
      .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, c.id)))
      .returning();
    if (!activity) throw new Error('no activity');
    const intent = await createPaymentIntent(tx, {
      customerId,
      caseId: c.id,
      caseActivityId: activity.id,
      outcome: 'paid',
    });
    await createPayment(tx, intent);
    return {
      id: s.id,
      email,
      caseId: c.id,
      activityId: activity.id,
      pageKeys: doc.pages.flatMap((p) => [p.key, p.thumbnailKey]),
    };
  });
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, {
      customerId: other,
      username: 'admin@other.test',
      roles: ['admin'],
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
});

afterAll(async () => {
  await t?.close();
});

describe('recording an erasure request', () => {
  it('validates the body, refuses without the permission and for another tenant', async () => {
    const p = await person(acme, 'Vera');
    const bad = await send(admin, 'POST', '/api/erasure-requests/', { reason: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['subject']);
    const long = await send(admin, 'POST', '/api/erasure-requests/', {
      subject: p.id,
      reason: 'x'.repeat(1001),
    });
    expect([long.statusCode, Object.keys(long.json())]).toEqual([400, ['reason']]);
    const viewerTry = await send(viewer, 'POST', '/api/erasure-requests/', { subject: p.id });
    expect(viewerTry.statusCode).toBe(403);
    const theirs = await send(otherAdmin, 'POST', '/api/erasure-requests/', { subject: p.id });
    expect([theirs.statusCode, theirs.json()]).toEqual([
      400,
      { subject: [`Invalid pk "${p.id}" - object does not exist.`] },
    ]);
  });

  it('records one pending request (201, audited); a second is refused while it waits', async () => {
    const p = await person(acme, 'Wanda');
    const res = await send(admin, 'POST', '/api/erasure-requests/', {
      subject: p.id,
      reason: 'Asked by email',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      subject: { id: p.id, name: 'Wanda Doe' },
      state: 'pending',
      state_display: 'Awaiting a decision',
      requested_by: 'staff',
      reason: 'Asked by email',
      outcome: null,
    });
    const again = await send(admin, 'POST', '/api/erasure-requests/', { subject: p.id });
    expect([again.statusCode, again.json()]).toEqual([409, { detail: PENDING_DETAIL }]);
    const list = await send(viewer, 'GET', '/api/erasure-requests/?state=pending');
    expect(list.json().results.map((r: { id: number }) => r.id)).toContain(res.json().id);
    const theirs = await send(otherAdmin, 'GET', '/api/erasure-requests/');
    expect(theirs.json().count).toBe(0);
    const detail = await send(otherAdmin, 'GET', `/api/erasure-requests/${res.json().id}/`);
    expect(detail.statusCode).toBe(404);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.verb, 'erasure_requested'),
            eq(auditActions.objectId, String(res.json().id)),
          ),
        ),
    );
    expect(audit).toHaveLength(1);
  });
});

describe('deciding an erasure request', () => {
  async function pending(p: Person): Promise<number> {
    const res = await send(admin, 'POST', '/api/erasure-requests/', { subject: p.id });
    expect(res.statusCode).toBe(201);
    return res.json().id;
  }

  it('refuses with a reason only; the permission and the tenant are checked', async () => {
    const p = await person(acme, 'Rita');
    const id = await pending(p);
    const url = `/api/erasure-requests/${id}/decide/`;
    expect((await send(viewer, 'POST', url, { decision: 'refuse', reason: 'x' })).statusCode).toBe(
      403,
    );
    expect(
      (await send(otherAdmin, 'POST', url, { decision: 'refuse', reason: 'x' })).statusCode,
    ).toBe(404);
    const noReason = await send(admin, 'POST', url, { decision: 'refuse' });
    expect([noReason.statusCode, noReason.json()]).toEqual([400, { reason: [REASON_REQUIRED] }]);
    const bad = await send(admin, 'POST', url, { decision: 'maybe' });
    expect([bad.statusCode, Object.keys(bad.json())]).toEqual([400, ['decision']]);
    const refused = await send(admin, 'POST', url, {
      decision: 'refuse',
      reason: 'Checks still under review',
    });
    expect(refused.json()).toMatchObject({
      state: 'refused',
      decision_reason: 'Checks still under review',
      outcome: null,
    });
    const again = await send(admin, 'POST', url, { decision: 'approve' });
    expect(again.statusCode).toBe(409);
    expect(await verbsOf(ERASURE_REQUEST_CT, id)).toEqual(['erasure_requested', 'erasure_refused']);
    // nothing was removed
    const details = await t.owner((tx) =>
      tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, p.caseId)),
    );
    expect(details).toHaveLength(1);
  });

  it('carries out an approved erasure: removes what need not be kept, keeps what must be', async () => {
    const p = await person(acme, 'Erin');
    const bystander = await person(acme, 'Betty');
    const id = await pending(p);
    const res = await send(admin, 'POST', `/api/erasure-requests/${id}/decide/`, {
      decision: 'approve',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'completed',
      state_display: 'Carried out',
      subject: { id: p.id, name: 'Erased subject' },
      outcome: {
        removed: { case_basic_details: 1, case_addresses: 1, case_documents: 1, subjects: 1 },
        files: 2,
        results: 1,
        sign_in: 'disabled',
      },
    });
    expect(res.json().outcome.kept).toContain('Payments');
    await t.owner(async (tx) => {
      // removed: answers, documents and their files, the record's details, the sign-in
      expect(
        await tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, p.caseId)),
      ).toEqual([]);
      expect(
        await tx.select().from(caseAddresses).where(eq(caseAddresses.caseId, p.caseId)),
      ).toEqual([]);
      const docs = await tx.select().from(caseDocuments).where(eq(caseDocuments.caseId, p.caseId));
      expect(docs.map((d) => [d.documentType, d.pages])).toEqual([['passport', []]]);
      const [s] = await tx.select().from(subjects).where(eq(subjects.id, p.id));
      expect(s).toMatchObject({
        firstName: 'Erased',
        lastName: 'subject',
        dob: null,
        phoneNumber: '',
      });
      expect(s?.email).not.toContain('erin');
      const [login] = await tx
        .select()
        .from(subjectUsers)
        .where(eq(subjectUsers.id, s?.userId ?? 0));
      expect(login).toMatchObject({ isActive: false, passwordHash: null, firstName: '' });
      // kept: the case, its check with its result, the payment, the audit log
      expect(await tx.select().from(cases).where(eq(cases.id, p.caseId))).toHaveLength(1);
      const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.id, p.activityId));
      expect(a).toMatchObject({ state: 'ca-complete' });
      expect(a?.resultData).toEqual({
        application: { reference: 'APP-1', status: 'complete' },
        disclosure: { status: 'clear', certificate_number: '001234567890' },
      });
      expect(await tx.select().from(payments).where(eq(payments.caseId, p.caseId))).toHaveLength(1);
      const audit = await tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.verb, 'erasure_carried_out'),
            eq(auditActions.objectId, String(p.id)),
          ),
        );
      expect(audit).toHaveLength(1);
      // the bystander's data untouched
      expect(
        await tx
          .select()
          .from(caseBasicDetails)
          .where(eq(caseBasicDetails.caseId, bystander.caseId)),
      ).toHaveLength(1);
    });
    for (const key of p.pageKeys) expect(await t.app.deps.storage.get(key)).toBeNull();
    for (const key of bystander.pageKeys) expect(await t.app.deps.storage.get(key)).not.toBeNull();
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: (await anonymous(t.app)).headers,
      payload: { username: p.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(401);
    // audited in its own words: the request approved, the erasure carried out on the subject,
    // the sign-in closed, the document and the result redacted
    expect(await verbsOf(ERASURE_REQUEST_CT, id)).toEqual([
      'erasure_requested',
      'erasure_approved',
    ]);
    expect(await verbsOf('subjects.subject', p.id)).toContain('erasure_carried_out');
    const login = await t.owner(async (tx) => {
      const [s] = await tx.select().from(subjects).where(eq(subjects.id, p.id));
      return s?.userId ?? 0;
    });
    expect(await verbsOf('users.subjectuser', login)).toContain('sign_in_closed');
    expect(await verbsOf('cases.caseactivity', p.activityId)).toContain('redacted');
    // a new request for an erased subject is refused
    const again = await send(admin, 'POST', '/api/erasure-requests/', { subject: p.id });
    expect(again.statusCode).toBe(409);
  });

  it("scrubs the erased subject's audit and callback copies at once, who and when kept", async () => {
    const p = await person(acme, 'Olwen');
    const bystander = await person(acme, 'Bryn');
    const before = new Date(t.clock.now().getTime() - 60_000).toISOString();
    // copies written before the erasure: a result's change, a case-data edit, a provider callback
    const copies = (who: Person) =>
      t.owner(async (tx) => {
        const [result] = await tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
            content_type, object_id, changes, created_at)
          values (${acme}, 'ProductUser', 1, 'Ann Admin', 'updated', 'cases.caseactivity',
            ${String(who.activityId)},
            ${JSON.stringify({ state: ['ca-pending', 'ca-complete'], result_data: [{}, { applicant_name: 'Olwen Doe' }] })}::jsonb,
            ${before}) returning id`);
        const [details] = await tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
            content_type, object_id, changes, created_at)
          values (${acme}, 'ProductUser', 1, 'Ann Admin', 'updated', 'cases.casebasicdetails', '1',
            ${JSON.stringify({ case: who.caseId, fields: ['surname', 'dob'], personal: { surname: ['Doe', 'Jones'], dob: [null, '1980-01-01'] } })}::jsonb,
            ${before}) returning id`);
        const [record] = await tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
            content_type, object_id, object_repr, changes, created_at)
          values (${acme}, 'ProductUser', 1, 'Ann Admin', 'updated', 'subjects.subject',
            ${String(who.id)}, ${`Olwen Doe <${who.email}>`},
            ${JSON.stringify({ last_name: ['Jones', 'Doe'], dob: [null, '1980-01-01'], email: ['x@example.test', who.email], archived_at: [null, null] })}::jsonb,
            ${before}) returning id`);
        // the case's own rows name the subject in their label; a reminder's `to` is the email
        const [reminder] = await tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
            content_type, object_id, object_repr, changes, created_at)
          values (${acme}, 'ProductUser', 1, 'Ann Admin', 'reminder_sent', 'cases.case',
            ${String(who.caseId)}, ${`Case ${who.caseId} (Olwen Doe (née Jones))`},
            ${JSON.stringify({ to: who.email })}::jsonb, ${before}) returning id`);
        const [activity] = await tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, actor_type, actor_id, actor_name, verb,
            content_type, object_id, object_repr, changes, created_at)
          values (${acme}, 'ProductUser', 1, 'Ann Admin', 'state_changed', 'cases.caseactivity',
            ${String(who.activityId)}, ${`Case ${who.caseId} (Olwen Doe) activity ${who.activityId}`},
            ${JSON.stringify({ state: ['ca-pending', 'ca-complete'] })}::jsonb, ${before}) returning id`);
        await tx.insert(checkCallbackInbox).values({
          customerId: acme,
          caseActivityId: who.activityId,
          provider: 'dbs',
          eventId: `erasure-${who.activityId}`,
          body: { applicant_name: 'Olwen Doe' },
          appliedAt: new Date(before),
          outcome: 'applied',
        });
        return {
          result: Number(result?.id),
          details: Number(details?.id),
          record: Number(record?.id),
          reminder: Number(reminder?.id),
          activity: Number(activity?.id),
        };
      });
    const mine = await copies(p);
    const theirs = await copies(bystander);
    const id = await pending(p);
    const res = await send(admin, 'POST', `/api/erasure-requests/${id}/decide/`, {
      decision: 'approve',
    });
    expect(res.statusCode).toBe(200);
    await t.settle();
    const changesOf = (auditId: number) =>
      t.owner(async (tx) => {
        const [row] = await tx.execute<{ changes: Record<string, unknown>; actor_name: string }>(
          sql`select changes, actor_name, verb from audit_actions where id = ${auditId}`,
        );
        return row;
      });
    const bodyOf = (activityId: number) =>
      t.owner(async (tx) => {
        const [row] = await tx.execute<{ body: unknown; outcome: string }>(
          sql`select body, outcome from check_callback_inbox where case_activity_id = ${activityId}`,
        );
        return row;
      });
    // the subject's: the personal values gone, who, when and what kind kept
    expect(await changesOf(mine.result)).toEqual({
      changes: { state: ['ca-pending', 'ca-complete'], redacted: 'erasure' },
      actor_name: 'Ann Admin',
      verb: 'updated',
    });
    expect(await changesOf(mine.details)).toEqual({
      changes: { case: p.caseId, fields: ['surname', 'dob'], redacted: 'erasure' },
      actor_name: 'Ann Admin',
      verb: 'updated',
    });
    expect(
      await t.owner(async (tx) => {
        const [row] = await tx.execute(
          sql`select changes, object_repr, verb from audit_actions where id = ${mine.record}`,
        );
        return row;
      }),
    ).toEqual({
      changes: { archived_at: [null, null], redacted: 'erasure' },
      object_repr: `Subject ${p.id}`,
      verb: 'updated',
    });
    const rowOf = (auditId: number) =>
      t.owner(async (tx) => {
        const [row] = await tx.execute(
          sql`select changes, object_repr from audit_actions where id = ${auditId}`,
        );
        return row;
      });
    // the case's rows: no name in the label, no email in a reminder's `to`
    expect(await rowOf(mine.reminder)).toEqual({
      changes: { redacted: 'erasure' },
      object_repr: `Case ${p.caseId}`,
    });
    expect(await rowOf(mine.activity)).toEqual({
      changes: { state: ['ca-pending', 'ca-complete'] },
      object_repr: `Case ${p.caseId} activity ${p.activityId}`,
    });
    expect(await rowOf(theirs.reminder)).toEqual({
      changes: { to: bystander.email },
      object_repr: `Case ${bystander.caseId} (Olwen Doe (née Jones))`,
    });
    expect(await verbsOf('subjects.subject', p.id)).toContain('erasure_carried_out');
    expect(await bodyOf(p.activityId)).toEqual({
      body: { redacted: 'erasure' },
      outcome: 'applied',
    });
    // the bystander's untouched
    expect((await changesOf(theirs.result))?.changes).toHaveProperty('result_data');
    expect((await changesOf(theirs.details))?.changes).toHaveProperty('personal.surname');
    expect(
      await t.owner(async (tx) => {
        const [row] = await tx.execute(
          sql`select object_repr from audit_actions where id = ${theirs.record}`,
        );
        return row;
      }),
    ).toEqual({ object_repr: `Olwen Doe <${bystander.email}>` });
    expect((await bodyOf(bystander.activityId))?.body).toEqual({ applicant_name: 'Olwen Doe' });
  });

  it('leaves to the next retention run what a scrub job that did not run left', async () => {
    const p = await person(acme, 'Wyn');
    const row = await t.owner(async (tx) => {
      const [r] = await tx.execute<{ id: number }>(sql`
        insert into audit_actions (customer_id, verb, content_type, object_id, object_repr, changes)
        values (${acme}, 'created', 'subjects.subject', ${String(p.id)}, 'Wyn Doe',
          ${JSON.stringify({ first_name: 'Wyn', last_name: 'Doe', has_account: true })}::jsonb)
        returning id`);
      return Number(r?.id);
    });
    const id = await pending(p);
    const res = await send(admin, 'POST', `/api/erasure-requests/${id}/decide/`, {
      decision: 'approve',
    });
    expect(res.statusCode).toBe(200);
    // the job not run (no settle): the hourly run scrubs the erased record's rows as well
    await runRetentionDue(t.app.deps, acme);
    const [after] = await t.owner((tx) =>
      tx.execute(sql`select changes, object_repr from audit_actions where id = ${row}`),
    );
    expect(after).toEqual({
      changes: { has_account: true, redacted: 'erasure' },
      object_repr: `Subject ${p.id}`,
    });
    await t.settle();
  });

  it('scrubs in the next retention run an erased subject who had nothing to redact', async () => {
    // a case with case data only (no check, no document): the erasure records no redaction
    const who = await t.owner(async (tx) => {
      const s = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Nia',
        lastName: 'Bare',
        email: 'nia@example.test',
      });
      const process = await createProcess(tx, { customerId: acme, requirements: [] });
      const c = await createCase(tx, { customerId: acme, processId: process.id, subjectId: s.id });
      await createCaseBasicDetails(
        tx,
        { customerId: acme, caseId: c.id },
        { forename: 'Nia', surname: 'Bare', dob: '1990-02-02' },
      );
      const [details] = await tx.execute<{ id: number }>(sql`
        insert into audit_actions (customer_id, verb, content_type, object_id, changes)
        values (${acme}, 'updated', 'cases.casebasicdetails', '1',
          ${JSON.stringify({ case: c.id, fields: ['surname'], personal: { surname: ['Bair', 'Bare'] } })}::jsonb)
        returning id`);
      const [label] = await tx.execute<{ id: number }>(sql`
        insert into audit_actions (customer_id, verb, content_type, object_id, object_repr, changes)
        values (${acme}, 'reminder_sent', 'cases.case', ${String(c.id)}, ${`Case ${c.id} (Nia Bare)`},
          ${JSON.stringify({ to: 'nia@example.test' })}::jsonb)
        returning id`);
      return { id: s.id, caseId: c.id, details: Number(details?.id), label: Number(label?.id) };
    });
    const res = await send(admin, 'POST', '/api/erasure-requests/', { subject: who.id });
    expect(res.statusCode).toBe(201);
    const decided = await send(admin, 'POST', `/api/erasure-requests/${res.json().id}/decide/`, {
      decision: 'approve',
    });
    expect(decided.statusCode).toBe(200);
    const redactions = await t.owner((tx) =>
      tx.execute(sql`select 1 from retention_redactions where subject_id = ${who.id}`),
    );
    expect(redactions).toHaveLength(0);
    // the scrub job did not run (no settle): the hourly run is the backstop
    await runRetentionDue(t.app.deps, acme);
    const rows = await t.owner((tx) =>
      tx.execute<{ id: number; changes: unknown; object_repr: string }>(
        sql`select id, changes, object_repr from audit_actions
          where id in (${who.details}, ${who.label}) order by id`,
      ),
    );
    expect(rows.map((r) => [r.changes, r.object_repr])).toEqual([
      [{ case: who.caseId, fields: ['surname'], redacted: 'erasure' }, ''],
      [{ redacted: 'erasure' }, `Case ${who.caseId}`],
    ]);
    await t.settle();
  });

  it('scrubs the names in registrations and subscriptions (rows and audit labels)', async () => {
    const p = await person(acme, 'Ffion');
    const made = await t.owner(async (tx) => {
      const [seg] = await tx
        .insert(segments)
        .values({ customerId: acme, name: 'Erasure seg' })
        .returning();
      const proc = await createProcess(tx, { customerId: acme, requirements: [] });
      if (!seg) throw new Error('no segment');
      const [portal] = await tx.execute<{ id: number }>(sql`
        insert into registration_portals (customer_id, process_id, segment_id, path, title,
          ask_email, ask_dob, ask_phone)
        values (${acme}, ${proc.id}, ${seg.id}, 'erasure-portal', 'Volunteers', 'required',
          'required', 'optional') returning id`);
      const reg = (email: string, subjectId: number | null) =>
        tx.execute<{ id: number }>(sql`
          insert into portal_registrations (customer_id, reg_portal_id, process_id, first_name,
            last_name, email, dob, phone, state, started_at, expires_at, subject_id)
          values (${acme}, ${Number(portal?.id)}, ${proc.id}, 'Ffion', 'Doe', ${email},
            '1990-01-01', '+447700900123', 'expired', now(), now(), ${subjectId}) returning id`);
      // one that led to the subject, one of the same email that expired before it
      const [linked] = await reg(p.email, p.id);
      const [earlier] = await reg(p.email.toUpperCase(), null);
      const [cycle] = await tx.execute<{ id: number }>(sql`
        insert into cycles (customer_id, process_id, name, repeat_interval, repeat_unit,
          billing_interval, billing_triggered)
        values (${acme}, ${proc.id}, 'Yearly DBS', 1, 'year', 1, 'year') returning id`);
      const [sub] = await tx.execute<{ id: number }>(sql`
        insert into subscriptions (customer_id, cycle_id, subject_id, started_at)
        values (${acme}, ${Number(cycle?.id)}, ${p.id}, now()) returning id`);
      const audit = (ct: string, id: number, repr: string, changes: object) =>
        tx.execute<{ id: number }>(sql`
          insert into audit_actions (customer_id, verb, content_type, object_id, object_repr, changes)
          values (${acme}, 'registered', ${ct}, ${String(id)}, ${repr}, ${JSON.stringify(changes)}::jsonb)
          returning id`);
      const ids = [
        (
          await audit('regportals.portalregistration', Number(linked?.id), 'Ffion Doe', {
            email: p.email,
            state: 'started',
          })
        )[0],
        (
          await audit('regportals.portalregistration', Number(earlier?.id), 'Ffion Doe', {
            to: p.email,
          })
        )[0],
        (
          await audit('subscriptions.subscription', Number(sub?.id), 'Ffion Doe: Yearly DBS', {
            cycle: 1,
          })
        )[0],
      ].map((r) => Number(r?.id));
      return { regs: [Number(linked?.id), Number(earlier?.id)], sub: Number(sub?.id), audit: ids };
    });
    const res = await send(admin, 'POST', '/api/erasure-requests/', { subject: p.id });
    const decided = await send(admin, 'POST', `/api/erasure-requests/${res.json().id}/decide/`, {
      decision: 'approve',
    });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().outcome.removed.portal_registrations).toBe(2);
    await t.settle();
    const regs = await t.owner((tx) =>
      tx.execute<Record<string, unknown>>(sql`
        select first_name, last_name, dob, phone, email like '%@erased.invalid' as erased_email
        from portal_registrations where id in (${made.regs[0]}, ${made.regs[1]}) order by id`),
    );
    expect(regs).toEqual([
      { first_name: 'Erased', last_name: 'subject', dob: null, phone: null, erased_email: true },
      { first_name: 'Erased', last_name: 'subject', dob: null, phone: null, erased_email: true },
    ]);
    const rows = await t.owner((tx) =>
      tx.execute<{ object_repr: string; changes: unknown }>(sql`
        select object_repr, changes from audit_actions
        where id in (${made.audit[0]}, ${made.audit[1]}, ${made.audit[2]}) order by id`),
    );
    expect(rows).toEqual([
      {
        object_repr: `Registration ${made.regs[0]}`,
        changes: { state: 'started', redacted: 'erasure' },
      },
      { object_repr: `Registration ${made.regs[1]}`, changes: { redacted: 'erasure' } },
      { object_repr: `Subscription ${made.sub}: Yearly DBS`, changes: { cycle: 1 } },
    ]);
    expect(JSON.stringify(rows)).not.toContain('Ffion');
  });

  it('refuses while a case of the subject is under a legal hold', async () => {
    const p = await person(acme, 'Hollie');
    const id = await pending(p);
    await t.owner((tx) =>
      tx.insert(caseRetention).values({ customerId: acme, caseId: p.caseId, legalHold: true }),
    );
    const res = await send(admin, 'POST', `/api/erasure-requests/${id}/decide/`, {
      decision: 'approve',
    });
    expect([res.statusCode, res.json()]).toEqual([409, { detail: LEGAL_HOLD_DETAIL }]);
    const after = await send(admin, 'GET', `/api/erasure-requests/${id}/`);
    expect(after.json().state).toBe('pending');
    const details = await t.owner((tx) =>
      tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, p.caseId)),
    );
    expect(details).toHaveLength(1);
  });
});

describe("the subject's own requests", () => {
  it('asks once for each organisation holding it, sees the state, and cannot ask twice', async () => {
    const p = await person(acme, 'Sally');
    await t.owner((tx) => createSubjectUser(tx, { customerId: other, email: p.email }));
    const me = await login(t.app, p.email);
    const res = await send(me, 'POST', '/api/s/erasure-requests/', { reason: 'Please remove me' });
    expect(res.statusCode).toBe(201);
    expect(
      res
        .json()
        .results.map((r: { customer: { name: string }; state: string }) => [
          r.customer.name,
          r.state,
        ]),
    ).toEqual([
      ['Acme', 'pending'],
      ['Other', 'pending'],
    ]);
    const again = await send(me, 'POST', '/api/s/erasure-requests/', {});
    expect([again.statusCode, again.json()]).toEqual([409, { detail: SUBJECT_ALREADY_ASKED }]);
    const list = await send(admin, 'GET', `/api/erasure-requests/?subject=${p.id}`);
    expect(list.json().results[0]).toMatchObject({
      requested_by: 'subject',
      reason: 'Please remove me',
    });
    const mine = await send(me, 'GET', '/api/s/erasure-requests/');
    expect(mine.json().count).toBe(2);
    expect((await send(admin, 'GET', '/api/s/erasure-requests/')).statusCode).toBe(403);
  });
});
