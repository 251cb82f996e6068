// @postgres: two app instances run the update service cycles at once; each licence is checked once per period (unique key)
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  type TestApp,
} from '../../../test/helpers.js';
import { queueJobs } from '../../platform/jobs.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { flags } from '../flags/flags.table.js';
import { licenceUpdateChecks } from './licence-update-checks.table.js';
import { LICENCE_CT } from './lms.service.js';
import {
  licenceDefinitions,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from './lms.table.js';
import { lmsApplications } from './lms-applications.table.js';
import {
  CATCH_UP_WINDOW_SECONDS,
  plusMonths,
  runUpdateServiceCycles,
  updateServiceCyclesJob,
  updateServiceDueOn,
} from './update-service-cycles-job.js';

// The DBS update service cycles of licensed drivers (issue 32): every six months from its issue
// a licence whose holder gave a certificate on the update service is checked again through the
// check engine and the update service simulator (a certificate starting 4 answers NEW_INFO),
// once per period even with two server processes, audited; new information flags the licence.

const DAY = 86_400_000;
let t: TestApp;
let council: number;
let other: number;
let definition: number;
let portal: number;

const today = () => t.clock.now().toISOString().slice(0, 10);

describe('the period of a licence', () => {
  it('is its issue plus 6, 12, 18… months, the latest come, while it runs', () => {
    expect(plusMonths('2026-08-31', 6)).toBe('2027-02-28');
    expect(plusMonths('2026-01-15', -6)).toBe('2025-07-15');
    expect(updateServiceDueOn('2026-01-10', '2029-01-09', '2026-07-09')).toBeNull();
    expect(updateServiceDueOn('2026-01-10', '2029-01-09', '2026-07-10')).toBe('2026-07-10');
    expect(updateServiceDueOn('2026-01-10', '2029-01-09', '2027-03-01')).toBe('2027-01-10');
    // a period after the expiry never comes
    expect(updateServiceDueOn('2026-01-10', '2026-12-31', '2027-03-01')).toBe('2026-07-10');
  });
});

/**
 * A holder of a licence issued `monthsAgo` months ago (status `status`), granted on an
 * application whose case holds `certificate` (none: no update service).
 */
async function driver(
  key: string,
  opts: {
    certificate: string | null;
    status?: 'active' | 'revoked';
    monthsAgo?: number;
    /** Another council's set-up (`councilSetUp`), and the licence's issue date. */
    place?: Place;
    issueDate?: string;
  },
) {
  const at = opts.place ?? { council, definition, portal };
  return t.owner(async (tx) => {
    const subject = await createSubjectUser(tx, { customerId: at.council, lastName: 'Smith' });
    const issueDate = opts.issueDate ?? plusMonths(today(), -(opts.monthsAgo ?? 7));
    const [licence] = await tx
      .insert(licences)
      .values({
        customerId: at.council,
        definitionId: at.definition,
        holderId: subject.id,
        number: `HCD/2026/${key}`,
        status: opts.status ?? 'active',
        issueDate,
        expiryDate: plusMonths(issueDate, 36),
      })
      .returning();
    const p = await createProcess(tx, {
      customerId: at.council,
      requirements: [{ code: 'dbs-update', config: {} }],
    });
    const c = await createCase(tx, {
      customerId: at.council,
      processId: p.id,
      subjectId: subject.id,
    });
    if (opts.certificate) {
      await tx.insert(caseDbsUpdateDetails).values({
        customerId: at.council,
        caseId: c.id,
        certificateNumber: opts.certificate,
        surname: 'Smith',
        dob: '1990-01-01',
      });
    }
    await tx.insert(lmsApplications).values({
      customerId: at.council,
      portalId: at.portal,
      definitionId: at.definition,
      subjectId: subject.id,
      kind: 'new',
      state: 'granted',
      feePence: 0,
      caseId: c.id,
      taxCheckNeed: 'confirm',
      licenceId: licence?.id ?? null,
    });
    return { licenceId: licence?.id ?? 0, caseId: c.id };
  });
}

const updateChecksOf = (caseId: number) =>
  t.owner((tx) =>
    tx
      .select({
        id: caseActivities.id,
        state: caseActivities.state,
        result: caseActivities.resultData,
      })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(and(eq(caseActivities.caseId, caseId), eq(activityTypes.code, 'dbs-update'))),
  );
const flagsOf = (caseId: number) =>
  t.owner((tx) => tx.select().from(flags).where(eq(flags.caseId, caseId)));

let newInfo: { licenceId: number; caseId: number };
let clear: { licenceId: number; caseId: number };
let noCertificate: { licenceId: number; caseId: number };
let revoked: { licenceId: number; caseId: number };
let recent: { licenceId: number; caseId: number };

interface Place {
  council: number;
  definition: number;
  portal: number;
}

/** A council with a driver licence definition (three years) and its portal. */
async function councilSetUp(name: string): Promise<Place> {
  return t.owner(async (tx) => {
    const id = (await createCustomer(tx, { name })).id;
    const [g] = await tx
      .insert(licenceGroups)
      .values({ customerId: id, name: 'Taxis' })
      .returning();
    const [s] = await tx
      .insert(licenceSubGroups)
      .values({ customerId: id, groupId: g?.id ?? 0, name: 'Drivers', code: 'HCD' })
      .returning();
    const [d] = await tx
      .insert(licenceDefinitions)
      .values({
        customerId: id,
        subGroupId: s?.id ?? 0,
        name: 'Driver',
        durationYears: 3,
        feePence: 0,
      })
      .returning();
    const [p] = await tx
      .insert(lmsApplicationPortals)
      .values({ customerId: id, definitionId: d?.id ?? 0, title: 'Apply', feePence: 0 })
      .returning();
    return { council: id, definition: d?.id ?? 0, portal: p?.id ?? 0 };
  });
}

beforeAll(async () => {
  // no workers: a run happens only when a test runs it (or settles the due jobs), so the
  // start-up catch-up of each process (a minute after its start) never races a test's own runs
  t = await buildTestApp({ config: { jobWorkers: false, startupCatchUp: true } });
  ({ council, definition, portal } = await councilSetUp('Northgate Council'));
  other = await t.owner(async (tx) => (await createCustomer(tx, { name: 'Southby Council' })).id);
  newInfo = await driver('00001', { certificate: '400000000021' });
  clear = await driver('00002', { certificate: '200000000022' });
  noCertificate = await driver('00003', { certificate: null });
  revoked = await driver('00004', { certificate: '400000000024', status: 'revoked' });
  recent = await driver('00005', { certificate: '200000000025', monthsAgo: 2 });
});
afterAll(() => t.close());

describe('update service cycles (a moved clock, two processes)', () => {
  it('checks each licence due once, even with two processes running at once', async () => {
    const twin = await t.twin();
    const [a, b] = await Promise.all([
      runUpdateServiceCycles(t.app.deps, council),
      runUpdateServiceCycles(twin.deps, council),
    ]);
    expect(a.checks + b.checks).toBe(2);
    // another council's run finds none of this council's licences
    expect(await runUpdateServiceCycles(t.app.deps, other)).toEqual({ checks: 0 });
    await t.settle();
    const periods = await t.owner((tx) => tx.select().from(licenceUpdateChecks));
    expect(periods.map((p) => p.licenceId).sort()).toEqual(
      [newInfo.licenceId, clear.licenceId].sort(),
    );
    const due = plusMonths(plusMonths(today(), -7), 6);
    expect(periods.every((p) => p.dueOn === due && p.caseActivityId !== null)).toBe(true);
    // the checks ran through the engine and the simulator
    const [checked] = (await updateChecksOf(newInfo.caseId)).filter(
      (c) => c.state !== 'ca-awaiting-subject',
    );
    expect(checked).toMatchObject({
      state: 'ca-complete',
      result: { certificate_status: 'NEW_INFO', certificate_number: '400000000021' },
    });
    const [clearCheck] = (await updateChecksOf(clear.caseId)).filter(
      (c) => c.state !== 'ca-awaiting-subject',
    );
    expect(clearCheck?.result).toMatchObject({ certificate_status: 'BLANK_NO_NEW_INFO' });
    // new information: the licence is flagged to the licensing team; no news: no flag
    const flagged = await flagsOf(newInfo.caseId);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]?.message).toMatch(/review licence HCD\/2026\/00001/);
    expect(await flagsOf(clear.caseId)).toHaveLength(0);
    // no certificate, a revoked licence, a licence issued two months ago: nothing
    for (const k of [noCertificate, revoked, recent]) {
      expect(
        (await updateChecksOf(k.caseId)).filter((c) => c.state !== 'ca-awaiting-subject'),
      ).toEqual([]);
    }
    // audited on the licence
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, LICENCE_CT),
            eq(auditActions.objectId, String(newInfo.licenceId)),
          ),
        ),
    );
    expect(audit.map((x) => [x.verb, x.changes.due_on])).toEqual([['requested', due]]);
  }, 120_000);

  it('a second run in the same period does nothing; the next period checks again', async () => {
    expect(await runUpdateServiceCycles(t.app.deps, council)).toEqual({ checks: 0 });
    t.clock.advance(100 * DAY);
    expect(await runUpdateServiceCycles(t.app.deps, council)).toEqual({ checks: 0 });
    // six months on: the next period of both, and the first of the recent licence
    t.clock.advance(90 * DAY);
    expect(await runUpdateServiceCycles(t.app.deps, council)).toEqual({ checks: 3 });
    await t.settle();
    expect(await runUpdateServiceCycles(t.app.deps, council)).toEqual({ checks: 0 });
    const completed = (await updateChecksOf(newInfo.caseId)).filter(
      (c) => c.state === 'ca-complete',
    );
    expect(completed).toHaveLength(2);
    expect(await flagsOf(newInfo.caseId)).toHaveLength(2);
  });

  it('an expired licence is not checked', async () => {
    t.clock.advance(3 * 365 * DAY);
    expect(await runUpdateServiceCycles(t.app.deps, council)).toEqual({ checks: 0 });
  });
});

// A run late by days makes the period's check up (the server down on the due date, the daily job
// not run); a licence whose whole period passed unchecked gets one check, for the current period;
// a licence due on a month's last day (issued on the 31st) is checked that day. Two processes
// running the late run at once still check each licence once. The clock is moved to set dates.
describe('a run after the server was down (catch-up)', () => {
  it('checks each licence of a period come, however late, once, with two processes', async () => {
    const place = await councilSetUp('Eastwick Council');
    const periodsOf = async () =>
      (
        await t.owner((tx) =>
          tx
            .select()
            .from(licenceUpdateChecks)
            .where(eq(licenceUpdateChecks.customerId, place.council)),
        )
      )
        .map((p) => [p.licenceId, p.dueOn])
        .sort((x, y) => Number(x[0]) - Number(y[0]));
    const run = () => runUpdateServiceCycles(t.app.deps, place.council);
    // due 4 March 2030
    const late = await driver('10001', {
      certificate: '200000000031',
      place,
      issueDate: '2029-09-04',
    });
    // due 20 August 2029 and 20 February 2030, never run for before
    const missedWhole = await driver('10002', {
      certificate: '200000000032',
      place,
      issueDate: '2029-02-20',
    });
    // due 28 February 2030 (31 August + 6 months)
    const monthEnd = await driver('10003', {
      certificate: '200000000033',
      place,
      issueDate: '2029-08-31',
    });
    // 28 February at the job's hour: the month-end licence that day; the one whose first period
    // passed unchecked once, for its current period
    t.clock.set('2030-02-28T06:30:00Z');
    expect(await run()).toEqual({ checks: 2 });
    expect(await periodsOf()).toEqual([
      [missedWhole.licenceId, '2030-02-20'],
      [monthEnd.licenceId, '2030-02-28'],
    ]);
    t.clock.set('2030-03-03T06:30:00Z');
    expect(await run()).toEqual({ checks: 0 });
    // the server down from 3 to 9 March: the late licence was due on 4 March with no run since;
    // the first run after, in two processes at once, checks it once, for that period
    t.clock.set('2030-03-09T06:30:00Z');
    const twin = await t.twin();
    const [a, b] = await Promise.all([run(), runUpdateServiceCycles(twin.deps, place.council)]);
    expect(a.checks + b.checks).toBe(1);
    expect(await run()).toEqual({ checks: 0 });
    t.clock.set('2030-04-20T06:30:00Z');
    expect(await run()).toEqual({ checks: 0 });
    await t.settle();
    expect(await periodsOf()).toEqual([
      [late.licenceId, '2030-03-04'],
      [missedWhole.licenceId, '2030-02-20'],
      [monthEnd.licenceId, '2030-02-28'],
    ]);
    // each period's one check was started through the engine and answered
    for (const k of [late, missedWhole, monthEnd]) {
      const started = (await updateChecksOf(k.caseId)).filter(
        (c) => c.state !== 'ca-awaiting-subject',
      );
      expect(started).toHaveLength(1);
      expect(started[0]?.result).toMatchObject({ certificate_status: 'BLANK_NO_NEW_INFO' });
    }
  }, 120_000);
});

// A server started after the 06:30 run was missed (down over it) runs the cycles soon after its
// start, not at the next 06:30: each process enqueues a run a minute after its start, processes
// starting together share one, and the licences whose period came meanwhile are checked once.
describe('a server started after a missed run catches up soon after its start', () => {
  const catchUpJobs = () =>
    t.owner((tx) =>
      tx
        .select()
        .from(queueJobs)
        .where(
          and(eq(queueJobs.name, updateServiceCyclesJob.name), eq(queueJobs.state, 'created')),
        ),
    );

  it('two processes started at 10:00 on the day after the outage: one run, one check', async () => {
    const place = await councilSetUp('Westfield Council');
    const periodsOf = async () =>
      (
        await t.owner((tx) =>
          tx
            .select()
            .from(licenceUpdateChecks)
            .where(eq(licenceUpdateChecks.customerId, place.council)),
        )
      ).map((p) => [p.licenceId, p.dueOn]);
    // due 4 March 2031; the servers down from 3 March to 9 March 10:00 (the 06:30 run missed)
    const due = await driver('20001', {
      certificate: '200000000041',
      place,
      issueDate: '2030-09-04',
    });
    t.clock.set('2031-03-09T10:00:00Z');
    // the earlier processes' start-up runs are gone (run by now, in a real installation)
    await t.owner((tx) =>
      tx.delete(queueJobs).where(eq(queueJobs.name, updateServiceCyclesJob.name)),
    );
    await Promise.all([t.twin(), t.twin()]);
    // nothing checked at the start itself; one run waits (two only if the processes' starts
    // fell either side of a window's edge)
    expect(await periodsOf()).toEqual([]);
    const queued = await catchUpJobs();
    const windows = new Set(
      queued.map((j) => Math.floor(j.createdOn.getTime() / 1000 / CATCH_UP_WINDOW_SECONDS)),
    );
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.length).toBe(windows.size);
    expect(queued.every((j) => j.startAfter.getTime() > j.createdOn.getTime())).toBe(true);
    // a minute passes (the queue's own time)
    await t.owner((tx) =>
      tx
        .update(queueJobs)
        .set({ startAfter: new Date(0) })
        .where(eq(queueJobs.name, updateServiceCyclesJob.name)),
    );
    await t.settle();
    expect(await catchUpJobs()).toEqual([]);
    expect(await periodsOf()).toEqual([[due.licenceId, '2031-03-04']]);
    const started = (await updateChecksOf(due.caseId)).filter(
      (c) => c.state !== 'ca-awaiting-subject',
    );
    expect(started).toHaveLength(1);
    expect(started[0]?.result).toMatchObject({ certificate_status: 'BLANK_NO_NEW_INFO' });
  }, 120_000);
});
