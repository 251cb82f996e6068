import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureWorld, subjectWithCase } from '../../../test/erasure-world.js';
import { type Client, createSubjectUser, login, type TestApp } from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { ERASED_NAME } from '../subjects/merged.js';
import { mergeSubjects } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';

// Issue 34 (review R3, R4): what an erasure used to leave behind. A duplicate merged into the
// erased subject kept its own name, email, date of birth and phone; the subject's own portal
// actions kept their name as the actor's (audit log, record of who saw what); the record of who
// saw what kept the uploaded file's original name; the request kept the name of the subject who
// asked; and the subject's checks still in progress ran on.

let t: TestApp;
let acme: number;
let admin: Client;

const send = (client: Client, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

/** Every row of `table` of customer `acme` as text (lower case), for a search of a name. */
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

describe('an erasure', () => {
  it('leaves no copy of the name or email: merged duplicates, actor names, file names, who asked', async () => {
    // the subject, with a case, a document whose file is named after them, and a duplicate record
    // (another email, another date of birth) merged into it
    const { subjectId, duplicateId, documentId } = await t.owner(async (tx) => {
      const { subject: s, case: c } = await subjectWithCase(
        tx,
        acme,
        {
          firstName: 'Quinn',
          lastName: 'Zephyrine',
          email: 'quinn.zephyrine@example.test',
          dob: '1981-02-03',
          phoneNumber: '+447700900111',
        },
        'ca-complete',
      );
      const dup = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Quinny',
        lastName: 'Zephyrin',
        email: 'q.zephyrin@example.test',
        dob: '1981-03-02',
        phoneNumber: '+447700900222',
      });
      const doc = await createCaseDocument(tx, t.app.deps.storage, {
        customerId: acme,
        caseId: c.id,
      });
      await tx
        .update(caseDocuments)
        .set({
          pages: doc.pages.map((p) => ({ ...p, originalName: 'Quinn Zephyrine passport.png' })),
        })
        .where(and(eq(caseDocuments.customerId, acme), eq(caseDocuments.id, doc.id)));
      return { subjectId: s.id, duplicateId: dup.id, documentId: doc.id };
    });
    await runInTenant(t.app.deps, jobActor(acme), ({ tx, actor }) =>
      mergeSubjects(tx, actor, subjectId, duplicateId, t.clock.now()),
    );
    // the person looks at their document and asks for the erasure from their profile
    const me = await login(t.app, 'quinn.zephyrine@example.test');
    const seen = await send(me, 'GET', `/api/s/case-documents/${documentId}/download/`);
    expect(seen.statusCode).toBe(200);
    const asked = await send(me, 'POST', '/api/s/erasure-requests/', { reason: 'Remove me' });
    expect(asked.statusCode).toBe(201);
    await t.settle();
    // the copies are there before
    expect((await rowsText('record_views')).join('\n')).toContain('quinn zephyrine passport.png');
    expect((await rowsText('audit_actions')).join('\n')).toContain('quinn zephyrine');
    const list = await send(admin, 'GET', `/api/erasure-requests/?subject=${subjectId}`);
    const requestId: number = list.json().results[0].id;
    const res = await send(admin, 'POST', `/api/erasure-requests/${requestId}/decide/`, {
      decision: 'approve',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ requested_by: 'subject', requested_by_name: ERASED_NAME });
    expect(res.json().outcome.removed).toMatchObject({ subjects: 2 });
    await t.settle();
    // no copy of either record's name, email, date of birth or phone, nor the file's name
    const leftovers = /quinn|zephyrin|1981-0[23]-0[23]|7700900/;
    // in every table of the customer's (74 when written: the record, the audit log, the record of
    // views, refusals, requests, registrations, documents...)
    const tables = await t.owner((tx) =>
      tx.execute<{ relname: string }>(sql`select distinct c.relname from pg_attribute a
        join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attname = 'customer_id'
          and not a.attisdropped order by 1`),
    );
    expect(tables.map((r) => r.relname)).toEqual(
      expect.arrayContaining(['subjects', 'audit_actions', 'record_views', 'erasure_requests']),
    );
    for (const { relname } of tables) {
      const found = (await rowsText(relname)).filter((r) => leftovers.test(r));
      expect([relname, found]).toEqual([relname, []]);
    }
    // the duplicate is erased and stays merged and archived; who did what stays, by type and id
    const [dup] = await t.owner((tx) =>
      tx
        .select()
        .from(subjects)
        .where(and(eq(subjects.customerId, acme), eq(subjects.id, duplicateId))),
    );
    expect(dup).toMatchObject({
      firstName: 'Erased',
      lastName: 'subject',
      dob: null,
      phoneNumber: '',
      mergedIntoId: subjectId,
    });
    expect(dup?.archivedAt).not.toBeNull();
    // both sign-ins (the duplicate had its own email, so its own) closed and blanked
    const signIns = await t.owner((tx) =>
      tx.execute<{ row: string; is_active: boolean }>(sql`
        select lower(row_to_json(u)::text) as row, u.is_active from subject_users u
        where u.id in (select user_id from subjects where customer_id = ${acme}
          and id in (${subjectId}, ${duplicateId}))`),
    );
    expect(signIns).toHaveLength(2);
    for (const u of signIns) {
      expect(u.is_active).toBe(false);
      expect(u.row).not.toMatch(leftovers);
    }
    const acted = await t.owner((tx) =>
      tx.execute<{ actor_name: string; verb: string }>(sql`select actor_name, verb
        from audit_actions where customer_id = ${acme} and actor_type = 'SubjectUser'`),
    );
    expect(acted.map((a) => [a.verb, a.actor_name])).toContainEqual([
      'erasure_requested',
      ERASED_NAME,
    ]);
    const views = await t.owner((tx) =>
      tx.execute<{ actor_name: string; item_label: string; count: number }>(sql`
        select actor_name, item_label, count from record_views
        where customer_id = ${acme} and item_kind = 'document' and item_id = ${documentId}`),
    );
    expect(views.map((v) => [v.actor_name, v.item_label])).toEqual([[ERASED_NAME, 'passport']]);
  });

  it('cancels the checks of its cases still in progress', async () => {
    const { subjectId, activityId } = await t.owner(async (tx) => {
      const { subject: s, case: c } = await subjectWithCase(
        tx,
        acme,
        { firstName: 'Otto', lastName: 'Running' },
        'ca-in-progress',
      );
      const [a] = await tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, acme), eq(caseActivities.caseId, c.id)));
      return { subjectId: s.id, activityId: a?.id ?? 0 };
    });
    const req = await send(admin, 'POST', '/api/erasure-requests/', { subject: subjectId });
    expect(req.statusCode).toBe(201);
    const res = await send(admin, 'POST', `/api/erasure-requests/${req.json().id}/decide/`, {
      decision: 'approve',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome.removed).toMatchObject({ checks_cancelled: 1 });
    const [a] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.id, activityId)),
    );
    expect(a?.state).toBe('ca-cancelled');
    const verbs = await t.owner((tx) =>
      tx.execute<{ changes: { state?: string[] } }>(sql`select changes from audit_actions
        where customer_id = ${acme} and content_type = 'cases.caseactivity'
          and object_id = ${String(activityId)}`),
    );
    expect(verbs.map((v) => v.changes.state)).toContainEqual(['ca-in-progress', 'ca-cancelled']);
  });
});
