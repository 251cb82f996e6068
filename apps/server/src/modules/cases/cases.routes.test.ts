// @postgres: whole-app smoke on node-postgres: the case list, its search plans, RLS

import { caseListItemOut } from '@kestrel/domain';
import { and, eq, fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createFlag,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { inlineParams } from '../../db/connection.js';
import { systemActor } from '../../platform/context.js';
import { COUNT_CAP } from '../../platform/list-builder.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { caseBasicDetails } from '../case-data/case-data.table.js';
import { likelyDuplicatesSql } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import {
  caseListConditions,
  caseListQuery,
  caseOrdering,
  presentCaseListItem,
  selectCaseList,
  selectCaseListJson,
} from './cases.repo.js';
import { cases } from './cases.table.js';

let t: TestApp;
let acme: number;
let other: number;
let care: number;
let otherCase: number;
let admin: Client;
let viewer: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    care = (
      await createProcess(tx, {
        customerId: acme,
        name: 'Care',
        requirements: ['basic-details', 'dbs-basic', 'knowledge-test'],
      })
    ).id;
    otherCase = (await createCase(tx, { customerId: other })).id;
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
});
afterAll(() => t.close());

const get = (c: Client, url: string) => t.app.inject({ method: 'GET', url, headers: c.headers });
const post = (c: Client, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: c.headers, payload });

const audits = (objectId: number, verb: string) =>
  t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(
        and(
          eq(auditActions.contentType, 'cases.case'),
          eq(auditActions.objectId, String(objectId)),
          eq(auditActions.verb, verb),
        ),
      ),
  );

describe('POST /api/cases/', () => {
  it('opens a case for a new subject: one activity per requirement, invitation with claim link', async () => {
    const res = await post(admin, '/api/cases/', {
      process: care,
      new_subject: { first_name: 'Jo', last_name: 'Bloggs', email: 'Jo.Bloggs@example.test' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.subject).toMatchObject({ email: 'jo.bloggs@example.test', has_account: false });
    expect(body.case_activities.map((a: { activity_type: string }) => a.activity_type)).toEqual([
      'basic-details',
      'dbs-basic',
      'knowledge-test',
    ]);
    // the knowledge test has no portal section, but the engine starts it on the subject's
    // Review & Submit (an invitation to take it): it awaits the subject too
    expect(body.case_activities.map((a: { state: string }) => a.state)).toEqual([
      'ca-awaiting-subject',
      'ca-awaiting-subject',
      'ca-awaiting-subject',
    ]);
    expect(body.state).toBe('awaiting-subject');
    await t.settle(); // emails are jobs of the request's transaction
    const mails = await t.owner((tx) =>
      tx.select().from(outboxEmails).where(eq(outboxEmails.to, 'jo.bloggs@example.test')),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('/auth/claim-account?token=');
    expect(await audits(body.id, 'created')).toHaveLength(1);
    expect(await audits(body.id, 'invited')).toHaveLength(1);
  });

  it('an existing subject with an account gets a link to the portal case', async () => {
    const s = await t.owner((tx) =>
      createSubjectUser(tx, { customerId: acme, email: 'has-account@example.test' }),
    );
    const res = await post(admin, '/api/cases/', { process: care, subject: s.id });
    expect(res.statusCode).toBe(201);
    await t.settle(); // emails are jobs of the request's transaction
    const mails = await t.owner((tx) =>
      tx.select().from(outboxEmails).where(eq(outboxEmails.to, 'has-account@example.test')),
    );
    expect(mails[0]?.text).toContain(`/s/cases/${res.json().id}`);
    expect(mails[0]?.text).not.toContain('claim-account');
  });

  it('validates: subject or new_subject, process, subject fields', async () => {
    expect((await post(admin, '/api/cases/', { process: care })).json()).toEqual({
      non_field_errors: ['Give subject or new_subject.'],
    });
    expect((await post(admin, '/api/cases/', {})).json()).toHaveProperty('process');
    const bad = await post(admin, '/api/cases/', {
      process: care,
      new_subject: { first_name: '', last_name: 'X', email: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['new_subject.email', 'new_subject.first_name']);
    const foreign = await t.owner((tx) => createProcess(tx, { customerId: other }));
    const res = await post(admin, '/api/cases/', {
      process: foreign.id,
      new_subject: { first_name: 'A', last_name: 'B', email: 'ab@example.test' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('process');
  });

  it('a viewer may not add cases', async () => {
    const res = await post(viewer, '/api/cases/', {
      process: care,
      new_subject: { first_name: 'A', last_name: 'B', email: 'viewer-made@example.test' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/cases/', () => {
  let flagged: number;
  let oldCase: number;
  beforeAll(async () => {
    await t.owner(async (tx) => {
      const s = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Zelda',
        lastName: 'Quimby',
        email: 'zq@example.test',
      });
      const c = await createCase(tx, { customerId: acme, processId: care, subjectId: s.id });
      flagged = c.id;
      await createFlag(tx, { customerId: acme, caseId: c.id });
      oldCase = (
        await createCase(tx, {
          customerId: acme,
          processId: care,
          activityStates: ['ca-complete'],
          state: 'complete',
          createdAt: new Date('2025-01-15T10:00:00Z'),
        })
      ).id;
    });
  });

  it('lists the tenant cases with subject, process and flag, newest first', async () => {
    const res = await get(viewer, '/api/cases/?page_size=100');
    expect(res.statusCode).toBe(200);
    const ids = res.json().results.map((c: { id: number }) => c.id);
    expect(ids).not.toContain(otherCase);
    expect(ids.indexOf(flagged)).toBeLessThan(ids.indexOf(oldCase));
    const row = res.json().results.find((c: { id: number }) => c.id === flagged);
    expect(row).toMatchObject({
      flagged: true,
      process: { id: care, name: 'Care' },
      subject: { first_name: 'Zelda', last_name: 'Quimby', email: 'zq@example.test' },
    });
  });

  it('list rows present the same fields as the detail', async () => {
    await t.owner((tx) =>
      createCase(tx, {
        customerId: acme,
        processId: care,
        state: 'cancelled',
        activityStates: ['ca-cancelled'],
        createdAt: new Date('2026-03-04T05:06:07.891Z'),
      }),
    );
    const res = await get(viewer, '/api/cases/?page_size=100&is_archived=all');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const rows: { id: number; state: string; subject: object }[] = res.json().results;
    expect(new Set(rows.map((r) => r.state)).size).toBeGreaterThan(1);
    for (const row of rows) {
      const one = (await get(viewer, `/api/cases/${row.id}/`)).json();
      const { subject, ...rest } = row;
      const { subject: fullSubject, ...detail } = one;
      expect(detail).toMatchObject(rest);
      expect(fullSubject).toMatchObject(subject);
      expect(Object.keys(rest).every((k) => k in detail)).toBe(true);
    }
    expect(JSON.stringify(rows)).toContain('2026-03-04T05:06:07.891Z');
  });

  it('writes each list row exactly as presentCaseListItem presents it', async () => {
    await t.owner(async (tx) => {
      const s = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Zoë "Z"',
        lastName: "O'Brien \\ Jr",
        email: 'zoe.obrien@example.test',
      });
      await createCase(tx, {
        customerId: acme,
        processId: care,
        subjectId: s.id,
        state: 'cancelled',
        activityStates: ['ca-cancelled'],
        createdAt: new Date('2026-03-04T05:06:07.891Z'),
      });
    });
    const compared = await t.db.transaction({ scope: 'tenant', customerId: acme }, async (tx) => {
      const actor = { ...systemActor, customerId: acme };
      const out: [unknown, unknown][] = [];
      for (const q of [
        { is_archived: 'all' },
        { search: 'zoe' },
        { state: 'cancelled,complete' },
      ]) {
        const where = caseListConditions(q, actor);
        const order = caseOrdering('-updated_at');
        const json = await selectCaseListJson(tx, where, order, 100, 0);
        const rows = await selectCaseList(tx, where, order, 100, 0);
        expect(json.count).toBe(rows.count);
        expect(json.json.length).toBe(rows.rows.length);
        json.json.forEach((j, i) => {
          out.push([JSON.parse(j), rows.rows[i] && presentCaseListItem(rows.rows[i])]);
        });
      }
      return out;
    });
    expect(compared.length).toBeGreaterThan(3);
    for (const [written, presented] of compared) {
      expect(written).toEqual(presented);
      // The hot path writes its own JSON: it must be exactly the contract's list item.
      expect(caseListItemOut.parse(written)).toEqual(written);
    }
    expect(JSON.stringify(compared)).toContain('2026-03-04T05:06:07.891Z');
  });

  it('filters by search, state, flagged, process and created date range', async () => {
    const ids = async (qs: string) =>
      (await get(viewer, `/api/cases/?${qs}`)).json().results.map((c: { id: number }) => c.id);
    expect(await ids('search=quimb')).toEqual([flagged]);
    expect(await ids('search=ZQ@EXAMPLE')).toEqual([flagged]);
    expect(await ids('search=zelda%20quimby')).toEqual([flagged]);
    expect(await ids('flagged=true')).toEqual([flagged]);
    expect(await ids('state=complete')).toEqual([oldCase]);
    expect(await ids('created_after=2025-01-15&created_before=2025-01-15')).toEqual([oldCase]);
    expect(await ids('created_before=2025-01-14')).toEqual([]);
    expect((await ids(`process=${care}`)).length).toBeGreaterThan(2);
    expect((await get(viewer, '/api/cases/?state=bogus')).statusCode).toBe(400);
    expect((await get(viewer, '/api/cases/?created_after=2025-13-01')).json()).toEqual({
      created_after: ['Enter a valid date.'],
    });
  });

  it('orders by created_at ascending on request', async () => {
    const res = await get(viewer, '/api/cases/?ordering=created_at&page_size=1');
    expect(res.json().results[0].id).toBe(oldCase);
    expect(res.json().next).toContain('page=2');
  });

  it('exports the filtered list as CSV and audits it', async () => {
    const res = await get(viewer, '/api/cases/export/?search=quimby');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('cases.csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,state,process,subject_first_name,subject_last_name,subject_email,created_at,updated_at,completed_at,decision,flagged',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(`^${flagged},awaiting-subject,Care,Zelda,Quimby,zq@example.test,`),
    );
    const rows = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.verb, 'exported')),
    );
    expect(rows).toHaveLength(1);
  });
});

describe('case detail and actions', () => {
  it('detail with subject, summary and activities; 404 for another tenant', async () => {
    const id = await t.owner(
      async (tx) => (await createCase(tx, { customerId: acme, processId: care })).id,
    );
    const res = await get(viewer, `/api/cases/${id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toEqual({ activities: 3, open: 3, complete: 0, cancelled: 0 });
    expect(res.json().case_activities[0]).toMatchObject({ key: 'basic-details', case: { id } });
    expect((await get(viewer, `/api/cases/${otherCase}/`)).statusCode).toBe(404);
    expect((await post(admin, `/api/cases/${otherCase}/cancel/`)).statusCode).toBe(404);
    expect((await get(viewer, '/api/cases/abc/')).statusCode).toBe(404);
  });

  it("the subject's date of birth and phone as entered on the case when the record has none", async () => {
    const id = await t.owner(async (tx) => {
      const subject = await createSubjectUser(tx, {
        customerId: acme,
        email: 'no-dob@example.test',
        dob: null,
        phoneNumber: '',
      });
      const c = await createCase(tx, { customerId: acme, processId: care, subjectId: subject.id });
      return c.id;
    });
    const before = (await get(viewer, `/api/cases/${id}/`)).json().subject;
    expect(before).toMatchObject({ dob: null, phone_number: '' });
    // what the subject entered in the portal (and an identity check confirmed)
    await t.owner((tx) =>
      tx.insert(caseBasicDetails).values({
        customerId: acme,
        caseId: id,
        dob: '1991-03-04',
        phoneNumber: '+447700900123',
      }),
    );
    const after = (await get(viewer, `/api/cases/${id}/`)).json().subject;
    expect(after).toMatchObject({ dob: '1991-03-04', phone_number: '+447700900123' });
  });

  it('record_decision only from pending-case-decision', async () => {
    const [open, ready] = await t.owner(async (tx) => [
      (
        await createCase(tx, {
          customerId: acme,
          processId: care,
          activityStates: ['ca-in-progress'],
        })
      ).id,
      (await createCase(tx, { customerId: acme, processId: care, activityStates: ['ca-complete'] }))
        .id,
    ]);
    const refused = await post(admin, `/api/cases/${open}/record_decision/`, {
      decision: 'satisfactory',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      state: ["Cannot change a case from 'in-progress' to 'complete'."],
    });
    expect(
      (await post(admin, `/api/cases/${ready}/record_decision/`, { decision: 'maybe' })).statusCode,
    ).toBe(400);
    expect(
      (await post(viewer, `/api/cases/${ready}/record_decision/`, { decision: 'satisfactory' }))
        .statusCode,
    ).toBe(403);
    const ok = await post(admin, `/api/cases/${ready}/record_decision/`, {
      decision: 'satisfactory',
      notes: 'All clear',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      state: 'complete',
      decision: 'satisfactory',
      decision_notes: 'All clear',
    });
    expect(ok.json().completed_at).not.toBeNull();
    expect(await audits(ready, 'decision_recorded')).toHaveLength(1);
  });

  it('cancel cancels open activities; a cancelled case cannot be cancelled again', async () => {
    const id = await t.owner(
      async (tx) =>
        (
          await createCase(tx, {
            customerId: acme,
            processId: care,
            activityStates: ['ca-complete', 'ca-in-progress'],
          })
        ).id,
    );
    const res = await post(admin, `/api/cases/${id}/cancel/`, { reason: 'Withdrew' });
    expect(res.statusCode).toBe(200);
    expect(res.json().state).toBe('cancelled');
    expect(res.json().case_activities.map((a: { state: string }) => a.state)).toEqual([
      'ca-complete',
      'ca-cancelled',
      'ca-cancelled',
    ]);
    const again = await post(admin, `/api/cases/${id}/cancel/`);
    expect(again.json()).toEqual({
      state: ["Cannot change a case from 'cancelled' to 'cancelled'."],
    });
    // The body may be left out altogether (read as `{}`): the same answer, not a refused body.
    const bodyless = await t.app.inject({
      method: 'POST',
      url: `/api/cases/${id}/cancel/`,
      headers: admin.headers,
    });
    expect(bodyless.json()).toEqual(again.json());
    expect(await audits(id, 'cancelled')).toHaveLength(1);
  });

  it('archivable and archive (cases.archive)', async () => {
    const [open, done] = await t.owner(async (tx) => [
      (await createCase(tx, { customerId: acme, processId: care })).id,
      (
        await createCase(tx, {
          customerId: acme,
          processId: care,
          activityStates: ['ca-complete'],
          state: 'complete',
        })
      ).id,
    ]);
    expect((await get(viewer, `/api/cases/${open}/archivable/`)).json()).toEqual({
      archivable: false,
      reason: 'Only complete or cancelled cases can be archived.',
    });
    expect((await post(admin, `/api/cases/${open}/archive/`)).json()).toEqual({
      non_field_errors: ['Only complete or cancelled cases can be archived.'],
    });
    expect((await get(viewer, `/api/cases/${done}/archivable/`)).json()).toEqual({
      archivable: true,
      reason: null,
    });
    expect((await post(viewer, `/api/cases/${done}/archive/`)).statusCode).toBe(403);
    const res = await post(admin, `/api/cases/${done}/archive/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_archived: true, archivable: false });
    expect(await audits(done, 'archived')).toHaveLength(1);
    const listed = (await get(viewer, '/api/cases/?page_size=100'))
      .json()
      .results.map((c: { id: number }) => c.id);
    expect(listed).not.toContain(done);
    const archived = (await get(viewer, '/api/cases/?is_archived=true&page_size=100')).json()
      .results;
    expect(archived.map((c: { id: number }) => c.id)).toContain(done);
  });

  it('send-reminder emails a subject the case waits for', async () => {
    const [waiting, working] = await t.owner(async (tx) => {
      const s = await createSubjectUser(tx, {
        customerId: acme,
        email: 'remind-me@example.test',
        password: null,
      });
      return [
        (await createCase(tx, { customerId: acme, processId: care, subjectId: s.id })).id,
        (
          await createCase(tx, {
            customerId: acme,
            processId: care,
            activityStates: ['ca-in-progress'],
          })
        ).id,
      ];
    });
    const res = await post(admin, `/api/cases/${waiting}/send-reminder/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Reminder sent' });
    await t.settle(); // emails are jobs of the request's transaction
    const mails = await t.owner((tx) =>
      tx.select().from(outboxEmails).where(eq(outboxEmails.to, 'remind-me@example.test')),
    );
    expect(mails[0]?.subject).toMatch(/^Reminder/);
    expect(mails[0]?.text).toContain('/auth/claim-account?token=');
    expect((await post(admin, `/api/cases/${working}/send-reminder/`)).statusCode).toBe(400);
    expect(await audits(waiting, 'reminder_sent')).toHaveLength(1);
  });

  it('log-pdf-generation is audited', async () => {
    const id = await t.owner(
      async (tx) => (await createCase(tx, { customerId: acme, processId: care })).id,
    );
    expect((await post(viewer, `/api/cases/${id}/log-pdf-generation/`)).json()).toEqual({
      detail: 'Logged',
    });
    expect(await audits(id, 'pdf_generated')).toHaveLength(1);
  });

  it('audit log filters by verb, object and date', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const today = t.clock.now().toISOString().slice(0, 10);
    const res = await get(
      a,
      `/api/audit-actions/?verb=archived&content_type=cases.case&created_after=${today}&created_before=${today}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(1);
    expect(
      (await get(a, '/api/audit-actions/?verb=archived&created_before=2000-01-01')).json().count,
    ).toBe(0);
  });
});

describe('case counters (case_counts, kept by triggers)', () => {
  const grouped = () =>
    t.owner(async (tx) => {
      const counted = await tx.execute<{ k: string; n: number }>(sql`
        select customer_id || '/' || state || '/' || (archived_at is not null) as k, count(*)::int as n
        from cases group by 1 order by 1`);
      const kept = await tx.execute<{ k: string; n: number }>(sql`
        select customer_id || '/' || state || '/' || archived as k, n from case_counts
        where n <> 0 order by 1`);
      return { counted: [...counted], kept: [...kept] };
    });

  it("equal count(*) after the file's creates, cancels, decisions and archives", async () => {
    const { counted, kept } = await grouped();
    expect(counted.length).toBeGreaterThan(3);
    expect(kept).toEqual(counted);
  });

  it('follow bulk updates and deletes, and the list totals use them', async () => {
    await t.owner(async (tx) => {
      await tx.execute(sql`update cases set state = 'cancelled'
        where customer_id = ${acme} and state = 'pending-case-decision'`);
      await tx.execute(sql`update cases set updated_at = now() where customer_id = ${acme}`);
      const c = await createCase(tx, { customerId: acme, processId: care });
      await tx.execute(sql`delete from case_activities where case_id = ${c.id}`);
      await tx.execute(sql`delete from cases where id = ${c.id}`);
    });
    const { counted, kept } = await grouped();
    expect(kept).toEqual(counted);
    const direct = (where: string) =>
      t.owner(async (tx) => {
        const [r] = await tx.execute<{ n: number }>(
          sql.raw(`select count(*)::int as n from cases where customer_id = ${acme} and ${where}`),
        );
        return r?.n;
      });
    const total = async (qs: string) =>
      (await get(viewer, `/api/cases/?page_size=1&${qs}`)).json().count;
    expect(await total('')).toBe(await direct('archived_at is null'));
    expect(await total('is_archived=true')).toBe(await direct('archived_at is not null'));
    expect(await total('is_archived=all')).toBe(await direct('true'));
    expect(await total('state=cancelled,complete')).toBe(
      await direct(`archived_at is null and state in ('cancelled', 'complete')`),
    );
    expect(await total('state=awaiting-subject&is_archived=all')).toBe(
      await direct(`state = 'awaiting-subject'`),
    );
  });
});

describe("a search's total (issue 28, review M3)", () => {
  // A search counts its matches up to COUNT_CAP + 1, in its page (one pass over them), not every
  // match of a broad term; a page past the last one answers the same total, not 0.
  it('stops at COUNT_CAP + 1 (count_capped) and keeps its total past the last page', async () => {
    const many = await t.owner(async (tx) => {
      const id = (await createCustomer(tx, { name: 'Many' })).id;
      await createAdminAndViewer(tx, id, 'many.test');
      const process = await createProcess(tx, { customerId: id });
      const broad = await createSubjectUser(tx, {
        customerId: id,
        firstName: 'Foldy',
        lastName: 'Manyfold',
      });
      const few = await createSubjectUser(tx, {
        customerId: id,
        firstName: 'Foldy',
        lastName: 'Fewfold',
      });
      await tx.execute(sql`
        insert into cases (customer_id, process_id, subject_id, state)
          select ${id}, ${process.id}, s, 'pending'
          from (select ${broad.id}::bigint s, generate_series(1, ${COUNT_CAP + 5})
                union all select ${few.id}::bigint, generate_series(1, 3)) x`);
      return id;
    });
    const found = await t.db.transaction({ scope: 'tenant', customerId: many }, async (tx) => {
      const actor = { ...systemActor, customerId: many };
      const order = caseOrdering(undefined);
      const list = (search: string, offset: number) =>
        selectCaseList(tx, caseListConditions({ search }, actor), order, 25, offset);
      const json = (search: string, offset: number) =>
        selectCaseListJson(tx, caseListConditions({ search }, actor), order, 25, offset);
      return {
        broad: await list('manyfold', 0),
        deep: await list('manyfold', COUNT_CAP),
        few: await list('fewfold', 0),
        pastEnd: await list('fewfold', 25),
        pastEndJson: await json('fewfold', 25),
        pastCap: await list('manyfold', COUNT_CAP + 25),
      };
    });
    // counted up to COUNT_CAP + 1, not all COUNT_CAP + 5
    expect([found.broad.rows.length, found.broad.count, found.broad.capped]).toEqual([
      25,
      COUNT_CAP + 1,
      true,
    ]);
    // a page across the cap: its rows, the total still capped
    expect(found.deep.rows.length).toBe(5);
    expect(found.deep.count).toBeGreaterThan(COUNT_CAP);
    expect([found.few.rows.length, found.few.count]).toEqual([3, 3]);
    // past the last page: no rows, the true total
    expect([found.pastEnd.rows.length, found.pastEnd.count]).toEqual([0, 3]);
    expect([found.pastEndJson.json.length, found.pastEndJson.count]).toEqual([0, 3]);
    expect([found.pastCap.rows.length, found.pastCap.count]).toEqual([0, COUNT_CAP + 1]);
    // the answer: "10,000+", and the page's order kept (newest first)
    const manyAdmin = await login(t.app, 'admin@many.test');
    const res = await get(manyAdmin, '/api/cases/?search=manyfold&page_size=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect([body.count, body.count_capped, body.results.length]).toEqual([COUNT_CAP, true, 100]);
    const ids: number[] = body.results.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // by last name (the matches numbered in that order): the same capped total, that order
    const byName = await get(
      manyAdmin,
      '/api/cases/?search=foldy&ordering=-last_name&page_size=100&page=2',
    );
    expect(byName.statusCode).toBe(200);
    const named = byName.json();
    expect([named.count, named.count_capped]).toEqual([COUNT_CAP, true]);
    const names: string[] = named.results.map(
      (r: { subject: { last_name: string } }) => r.subject.last_name,
    );
    expect(names).toEqual(Array(100).fill('Manyfold'));
    const last = await get(
      manyAdmin,
      '/api/cases/?search=foldy&ordering=-last_name&page_size=100&page=101',
    );
    expect(
      last.json().results.map((r: { subject: { last_name: string } }) => r.subject.last_name),
    ).toEqual([...Array(5).fill('Manyfold'), 'Fewfold', 'Fewfold', 'Fewfold']);
  }, 120_000);
});

describe('case free-text search uses the subject search indexes', () => {
  it('has no sequential scan on cases or subjects (101 tenants, one with 6,200 cases)', async () => {
    const tenant = await t.owner(async (tx) => {
      await tx.execute(sql`
        insert into customers (name) select 'Bulk ' || g from generate_series(1, 100) g`);
      await tx.execute(sql`
        insert into processes (customer_id, name) select id, 'Bulk' from customers where name like 'Bulk %'`);
      // Each person's login, then each customer's record of them.
      const people = async (rows: string) => {
        await tx.execute(sql.raw(`insert into subject_users (email) select e from (${rows}) x`));
        await tx.execute(
          sql.raw(`insert into subjects (customer_id, user_id, email, first_name, last_name)
            select x.c, u.id, x.e, x.f, x.l from (${rows}) x join subject_users u on u.email = x.e`),
        );
      };
      await people(`select c.id c, 'bulk' || c.id || '-' || g || '@example.test' e, 'First' || g f,
        'Surname' || (c.id * 1000 + g) l
        from customers c, generate_series(1, 200) g where c.name like 'Bulk %'`);
      // One large tenant: scanning its own rows would cost more than the index.
      await people(`select c.id c, 'big' || g || '@example.test' e, 'Big' || g f, 'Large' || g l
        from customers c, generate_series(1, 6000) g where c.name = 'Bulk 50'`);
      await tx.execute(sql`
        insert into cases (customer_id, process_id, subject_id, state)
        select s.customer_id, p.id, s.id, 'pending'
        from subjects s join processes p on p.customer_id = s.customer_id and p.name = 'Bulk'`);
      await tx.execute(sql`analyze`);
      const [c] = await tx.execute<{ id: number }>(
        sql`select id from customers where name = 'Bulk 50'`,
      );
      return Number(c?.id);
    });
    const planOf = (search: string) =>
      t.db.transaction({ scope: 'tenant', customerId: tenant }, async (tx) => {
        const actor = { ...systemActor, customerId: tenant };
        const where = caseListConditions({ search }, actor);
        const order = caseOrdering(undefined);
        // the statement the list runs, as PostgreSQL receives it with this request's values
        const built = caseListQuery(tx, where, order.order, 25, 0).toSQL();
        const text = inlineParams(built.sql, fillPlaceholders(built.params, where.values));
        if (text === null) throw new Error('not inlinable');
        const rows = await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`explain ${text}`));
        const found = await selectCaseList(tx, where, order, 25, 0);
        return { text: [...rows].map((r) => r['QUERY PLAN']).join('\n'), found: found.rows.length };
      });
    const plan = await planOf(`Surname${tenant * 1000 + 7}`);
    expect(plan.found).toBe(1);
    expect(plan.text).toMatch(/subjects_search_(first|last|full|email|domain)_idx/);
    expect(plan.text).not.toMatch(/Seq Scan on (cases|subjects)/);
    // an email domain (a leading @ searches domains only) has its own index
    const domain = await planOf('@elsewhere.test');
    expect(domain.found).toBe(0);
    expect(domain.text).toMatch(/subjects_search_domain_idx/);
    expect(domain.text).not.toMatch(/Seq Scan on (cases|subjects)/);
    // the duplicate rule's lookups, for a subject of the large tenant, use indexes too
    const dupPlan = await t.db.transaction({ scope: 'tenant', customerId: tenant }, async (tx) => {
      const [one] = await tx.select().from(subjects).limit(1);
      if (!one) throw new Error('no subject');
      const built = new PgDialect().sqlToQuery(likelyDuplicatesSql(one));
      const text = inlineParams(built.sql, built.params);
      if (text === null) throw new Error('not inlinable');
      const rows = await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`explain ${text}`));
      return [...rows].map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(dupPlan).toMatch(/subjects_email_normalised_idx/);
    expect(dupPlan).not.toMatch(/Seq Scan on subjects/);
  }, 120_000);
});

it('keeps case activities of the tenant only (RLS)', async () => {
  const rows = await t.db.transaction({ scope: 'tenant', customerId: acme }, (tx) =>
    tx
      .select({ c: caseActivities.customerId })
      .from(caseActivities)
      .innerJoin(cases, eq(cases.id, caseActivities.caseId)),
  );
  expect(rows.every((r) => r.c === acme)).toBe(true);
});
