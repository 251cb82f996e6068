// @postgres: the erasure's transaction ending subscriptions and withdrawing applications, then the due job over node-postgres
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { cases } from '../cases/cases.table.js';
import { cycles, subscriptions } from '../cycles/cycles.table.js';
import { runSubscriptionsDue } from '../cycles/subscriptions-due-job.js';
import {
  licenceDefinitions,
  licenceGroups,
  licenceSubGroups,
  lmsApplicationPortals,
} from '../lms/lms.table.js';
import { lmsApplicationEvents, lmsApplications } from '../lms/lms-applications.table.js';
import { subjects } from '../subjects/subjects.table.js';

// Issue 34 (review 30, H2): an erasure closed the subject's cases but left their subscriptions
// active (at the next due date a case opened for 'Erased subject' and the customer was billed)
// and their open licensing applications in progress (a licence could still be granted).

let t: TestApp;
let acme: number;
let admin: Client;
const DAY = 86_400_000;

const send = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: admin.headers, payload });

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  acme = await t.owner(async (tx) => {
    const id = (await createCustomer(tx, { name: 'Acme', entitlements: ['cycles'] })).id;
    await createProductUser(tx, { customerId: id, username: 'admin@acme.test', roles: ['admin'] });
    return id;
  });
  admin = await login(t.app, 'admin@acme.test');
});
afterAll(() => t?.close());

describe('an erasure stops what would go on for the person', () => {
  it('ends the subscriptions of the record and its merged duplicate, withdraws the open application; the due job then opens nothing', async () => {
    const due = new Date(t.clock.now().getTime() + DAY);
    const w = await t.owner(async (tx) => {
      const p = await createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] });
      const [c1, c2] = await tx
        .insert(cycles)
        .values(
          [1, 2].map((n) => ({
            customerId: acme,
            processId: p.id,
            name: `Cycle ${n}`,
            requirements: ['dbs-basic'],
            repeatInterval: 6,
            repeatUnit: 'monthly' as const,
            billingInterval: 1,
            billingTriggered: 'yearly' as const,
          })),
        )
        .returning();
      const person = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Sybil',
        lastName: 'Subscribed',
        email: 'sybil.subscribed@example.test',
      });
      const dup = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Sybil',
        lastName: 'Duplicate',
        email: 'sybil.dup@example.test',
      });
      await tx.update(subjects).set({ mergedIntoId: person.id }).where(eq(subjects.id, dup.id));
      const other = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Olive',
        lastName: 'Other',
        email: 'olive.other@example.test',
      });
      const sub = (subjectId: number, cycleId: number, state: 'active' | 'paused' = 'active') => ({
        customerId: acme,
        cycleId,
        subjectId,
        state,
        startedAt: due,
        nextDueAt: due,
        nextBillingAt: due,
      });
      const subs = await tx
        .insert(subscriptions)
        .values([
          sub(person.id, c1?.id ?? 0),
          sub(person.id, c2?.id ?? 0, 'paused'),
          sub(dup.id, c2?.id ?? 0),
          sub(other.id, c1?.id ?? 0),
        ])
        .returning();
      // an application in progress (and a refused one, left as it is)
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
      const app = (state: 'in_progress' | 'refused') => ({
        customerId: acme,
        portalId: portal?.id ?? 0,
        definitionId: d?.id ?? 0,
        subjectId: person.id,
        kind: 'new' as const,
        state,
        feePence: 0,
        taxCheckNeed: 'confirm' as const,
      });
      const [open] = await tx.insert(lmsApplications).values(app('in_progress')).returning();
      const [refused] = await tx
        .insert(lmsApplications)
        .values({ ...app('refused'), decidedAt: t.clock.now(), decisionReason: 'No' })
        .returning();
      return {
        person: person.id,
        dup: dup.id,
        other: other.id,
        subs: subs.map((s) => s.id),
        open: open?.id ?? 0,
        refused: refused?.id ?? 0,
      };
    });

    const req = await send('/api/erasure-requests/', { subject: w.person });
    expect(req.statusCode, req.body).toBe(201);
    const res = await send(`/api/erasure-requests/${req.json().id}/decide/`, {
      decision: 'approve',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome.removed).toMatchObject({
      subscriptions_ended: 3,
      applications_withdrawn: 1,
    });
    await t.settle();

    const subs = await t.owner((tx) => tx.select().from(subscriptions));
    const stateOf = (id: number | undefined) => subs.find((s) => s.id === id)?.state;
    expect(w.subs.slice(0, 3).map(stateOf)).toEqual(['ended', 'ended', 'ended']);
    expect(stateOf(w.subs[3])).toBe('active');
    const apps = await t.owner((tx) => tx.select().from(lmsApplications));
    expect(apps.find((a) => a.id === w.open)?.state).toBe('withdrawn');
    expect(apps.find((a) => a.id === w.refused)?.state).toBe('refused');
    const withdraw = await t.owner((tx) =>
      tx.select().from(lmsApplicationEvents).where(eq(lmsApplicationEvents.applicationId, w.open)),
    );
    expect(withdraw.map((e) => e.action)).toContain('withdraw');
    // each change audited, as the erasure's actor's, naming no one
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.customerId, acme), eq(auditActions.verb, 'state_changed'))),
    );
    const ended = audits.filter((a) => a.contentType === 'subscriptions.subscription');
    expect(ended.map((a) => Number(a.objectId)).sort()).toEqual(w.subs.slice(0, 3).sort());
    expect(ended.every((a) => a.actorName !== '' && !JSON.stringify(a).includes('Sybil'))).toBe(
      true,
    );
    const appAudit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'lms_licences.application'),
            eq(auditActions.objectId, String(w.open)),
          ),
        ),
    );
    expect(appAudit.map((a) => a.changes)).toContainEqual({ state: ['in_progress', 'withdrawn'] });

    // the clock moves past the due date: the other subject's case opens, none for the erased
    t.clock.advance(2 * DAY);
    await runSubscriptionsDue(t.app.deps);
    const opened = await t.owner((tx) =>
      tx.select({ subjectId: cases.subjectId }).from(cases).where(eq(cases.customerId, acme)),
    );
    expect(opened.map((c) => c.subjectId)).toEqual([w.other]);
  });
});
