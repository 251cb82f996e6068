// @postgres: the hourly run's owner scrub of a purged case's notes and flags (updates joined to the redactions) over node-postgres
import { PURGED_TEXT } from '@kestrel/domain';
import { addMonths } from 'date-fns/addMonths';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdminAndViewer,
  createCustomer,
  createFlag,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities, caseActivityNotes } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { flags } from '../flags/flags.table.js';
import { createRetentionCase } from './retention.fixtures.js';
import { runRetentionDue } from './retention-job.js';

// Issue 34: the free text staff write about a person on a case (activity notes and their saved
// history, decision notes, flags) followed no rule. A closed case purged under the closed-cases
// rule (12 months after it closed, by default) now loses it too, with the rest of its content.

let t: TestApp;
let acme: number;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  acme = await t.owner(async (tx) => {
    const id = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, id);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    return id;
  });
});
afterAll(() => t.close());

/** A cancelled case closed at `closedAt`, with notes, a decision note and a flag naming the person. */
async function closedCaseWithText(closedAt: Date, lastName: string) {
  return t.owner(async (tx) => {
    const c = await createRetentionCase(tx, t.app.deps.storage, {
      customerId: acme,
      firstName: 'Nell',
      lastName,
      completedAt: closedAt,
      state: 'cancelled',
    });
    await tx
      .update(cases)
      .set({ decisionNotes: `${lastName} withdrew` })
      .where(eq(cases.id, c.caseId));
    await tx
      .update(caseActivities)
      .set({ notes: `${lastName} rang twice` })
      .where(eq(caseActivities.id, c.dbsActivityId));
    await tx.insert(caseActivityNotes).values({
      customerId: acme,
      caseId: c.caseId,
      caseActivityId: c.dbsActivityId,
      authorFirstName: 'Olive',
      authorLastName: 'Ops',
      description: `${lastName} rang twice`,
      createdAt: closedAt,
    });
    const flag = await createFlag(tx, {
      customerId: acme,
      caseId: c.caseId,
      message: `${lastName} to be checked`,
    });
    await tx
      .update(flags)
      .set({ createdAt: closedAt, active: false, resolutionComment: `${lastName} checked` })
      .where(eq(flags.id, flag.id));
    return c;
  });
}

const textOf = (caseIds: number[]) =>
  t.owner(async (tx) => ({
    notes: (
      await tx
        .select({ v: caseActivities.notes })
        .from(caseActivities)
        .where(inArray(caseActivities.caseId, caseIds))
    )
      .map((r) => r.v)
      .filter((v) => v !== ''),
    history: (
      await tx
        .select({ v: caseActivityNotes.description, author: caseActivityNotes.authorFirstName })
        .from(caseActivityNotes)
        .where(inArray(caseActivityNotes.caseId, caseIds))
    ).map((r) => [r.v, r.author]),
    decisions: (
      await tx.select({ v: cases.decisionNotes }).from(cases).where(inArray(cases.id, caseIds))
    ).map((r) => r.v),
    flags: (
      await tx
        .select({ m: flags.message, r: flags.resolutionComment, active: flags.active })
        .from(flags)
        .where(inArray(flags.caseId, caseIds))
    ).map((f) => [f.m, f.r, f.active]),
  }));

describe('the closed-cases purge and the free text about the person', () => {
  it('replaces the notes, their history, the decision notes and the flags of a purged case only', async () => {
    const now = t.clock.now();
    const old = await closedCaseWithText(addMonths(now, -1), 'Oldcase');
    const recent = await closedCaseWithText(now, 'Newcase');
    // a month in: neither is due (12 months after closing)
    await runRetentionDue(t.app.deps);
    expect((await textOf([old.caseId])).notes).toEqual(['Oldcase rang twice']);
    // the clock moves past the first's 12 months, not the second's
    t.clock.advance(11.5 * 30 * 86_400_000);
    await runRetentionDue(t.app.deps);
    expect(await textOf([old.caseId])).toEqual({
      notes: [PURGED_TEXT],
      history: [[PURGED_TEXT, 'Olive']],
      decisions: [PURGED_TEXT],
      flags: [[PURGED_TEXT, PURGED_TEXT, false]],
    });
    expect(await textOf([recent.caseId])).toEqual({
      notes: ['Newcase rang twice'],
      history: [['Newcase rang twice', 'Olive']],
      decisions: ['Newcase withdrew'],
      flags: [['Newcase to be checked', 'Newcase checked', false]],
    });
    // no copy of the name left in the purged case's rows of these tables
    const left = await t.owner((tx) =>
      tx.execute<{ row: string }>(sql`
        select row_to_json(x)::text as row from case_activities x where x.case_id = ${old.caseId}
        union all select row_to_json(n)::text from case_activity_notes n where n.case_id = ${old.caseId}
        union all select row_to_json(f)::text from flags f where f.case_id = ${old.caseId}
        union all select c.decision_notes from cases c where c.id = ${old.caseId}`),
    );
    expect(left.filter((r) => r.row.includes('Oldcase'))).toEqual([]);
    // once: a later run changes nothing
    await t.owner((tx) =>
      tx.update(cases).set({ decisionNotes: 'written later' }).where(eq(cases.id, old.caseId)),
    );
    await runRetentionDue(t.app.deps);
    expect((await textOf([old.caseId])).decisions).toEqual(['written later']);
  });
});

describe('the closed-cases purge and the audit log’s copies of that text', () => {
  it('removes the notes and the flag’s comment and message from their audit rows (review 30, H1)', async () => {
    const c = await closedCaseWithText(t.clock.now(), 'Auditcase');
    // written through the app: the notes (operations) and the flag's resolution (the customer)
    const ops = await login(t.app, 'ops@k.test');
    const admin = await login(t.app, 'admin@acme.test');
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/ops/case-activities/${c.dbsActivityId}/notes/`,
      headers: ops.headers,
      payload: { notes: 'Auditcase called back' },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const flag = await t.owner((tx) =>
      createFlag(tx, { customerId: acme, caseId: c.caseId, message: 'Auditcase is a risk' }),
    );
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/flags/${flag.id}/resolve/`,
      headers: admin.headers,
      payload: { comment: 'Auditcase cleared by phone' },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const auditRows = () =>
      t.owner(async (tx) =>
        (await tx.select().from(auditActions)).filter(
          (a) =>
            (a.contentType === 'cases.caseactivity' && a.objectId === String(c.dbsActivityId)) ||
            (a.contentType === 'flags.flag' && a.objectId === String(flag.id)),
        ),
      );
    const before = await auditRows();
    expect(before.map((a) => a.verb)).toEqual(expect.arrayContaining(['resolved', 'updated']));
    expect(JSON.stringify(before)).toContain('Auditcase');
    // the clock moves past the case's 12 months: purged, and its copies scrubbed
    t.clock.advance(12.5 * 30 * 86_400_000);
    await runRetentionDue(t.app.deps);
    expect((await textOf([c.caseId])).notes).toEqual([PURGED_TEXT]);
    const after = await auditRows();
    expect(after.map((a) => a.verb)).toEqual(expect.arrayContaining(['resolved', 'updated']));
    expect(JSON.stringify(after)).not.toContain('Auditcase');
    const byVerb = (verb: string) => after.find((a) => a.verb === verb);
    expect(byVerb('updated')?.changes).toEqual({ redacted: expect.any(String) });
    expect(byVerb('resolved')).toMatchObject({
      objectRepr: `Flag on case ${c.caseId}`,
      changes: { active: [true, false], redacted: expect.any(String) },
    });
  });
});
