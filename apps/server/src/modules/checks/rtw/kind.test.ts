import type { RtwResultData } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, ManualClock, type TestApp } from '../../../../test/helpers.js';
import { kindsWorld } from '../../../../test/kinds.js';
import { auditActions } from '../../../platform/tables/audit.table.js';

/*
 * Right to work end to end through the API (issue 27): the subject chooses a route in the
 * portal and submits; a share code goes to the Home Office simulator through the engine (its
 * answers chosen by the share code: providers/home-office-rtw/README.md), documents wait for the
 * manual check by the customer's staff or operations.
 */

const world = kindsWorld({
  app: { clock: new ManualClock('2026-11-24T09:00:00Z') },
  customers: ['Other'],
  viewer: true,
});
const { call } = world;
let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let ops: Client;
beforeAll(() => {
  ({ t, acme, admin, viewer, ops } = world);
  other = world.customer('Other');
});

/** A subject with a login and an open case asking for right to work, at `customerId`. */
const rtwCase = (customerId = acme) =>
  world.subjectCase({
    requirements: ['rtw'],
    customerId,
    subject: { firstName: 'Priya', lastName: 'Shah', dob: '1990-04-02' },
  });

/** The subject picks the route (and share code) and submits the portal. */
async function submit(
  k: { caseId: number; subject: Client },
  body: { route: string; share_code?: string },
) {
  const saved = await call(k.subject, 'PATCH', `/api/s/case-rtw-details/${k.caseId}/`, body);
  expect(saved.statusCode, saved.body).toBe(200);
  await world.submitPortal(k.subject, k.caseId, ['welcome', 'rtw']);
}

const activity = (id: number) => world.activity<RtwResultData>(id);

describe('the online check by share code', () => {
  it('a permanent right completes the check: names, nationality, method, checked by and at', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'share-code', share_code: 'w123-45678' });
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      method: 'share-code',
      outcome: 'permanent',
      forename: 'Priya',
      surname: 'Shah',
      nationality: 'French',
      // masked: the share code is stored encrypted with the case's details only (issue 34)
      share_code: '•••••5678',
      checked_by: 'Home Office online check',
      checked_at: '2026-11-24T09:00:00.000Z',
      follow_up_date: null,
    });
    expect(a.result_data.photo).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(a.processing_data.reference).toMatch(/^RTW-/);
    // the request is logged without the date of birth
    const request = a.processing_data.events.find((e) => e.type === 'request');
    expect(request?.body).toEqual({ share_code: '•••••5678', company_name: 'Acme' });
    // the stored bytes: no plain share code in the activity, nor in the audit log
    const [stored] = await t.owner((tx) =>
      tx.execute<{ row: string }>(
        sql`select (result_data::text || processing_data::text) as row
          from case_activities where id = ${k.activityId}`,
      ),
    );
    expect(stored?.row).toContain('5678');
    expect(stored?.row).not.toContain('W12345678');
    const audits = await t.owner((tx) =>
      tx.execute<{ changes: string }>(
        sql`select changes::text as changes from audit_actions
          where content_type = 'cases.casertwdetails' and object_id = ${String(k.caseId)}`,
      ),
    );
    expect(audits.length).toBeGreaterThan(0);
    expect(audits.map((a) => a.changes).join()).not.toContain('W12345678');
    expect(audits.map((a) => a.changes).join()).toContain('•••••5678');
    const details = (await call(admin, 'GET', `/api/case-rtw-details/${k.caseId}/`)).json();
    expect(details).toMatchObject({
      verification_method_display: 'Online check (Home Office share code)',
      checked_by: 'Home Office online check',
      state_display: 'Right to work confirmed',
    });
    expect(details.checked_at).not.toBeNull();
  });

  it('a time-limited right completes with a follow-up date, on the panel and the case', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'share-code', share_code: 'WTL345678' });
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      outcome: 'time-limited',
      expiry_date: '2027-11-24',
      follow_up_date: '2027-10-27',
    });
    expect(a.result_data.conditions).toHaveLength(2);
    const details = (await call(admin, 'GET', `/api/case-rtw-details/${k.caseId}/`)).json();
    expect(details.state_display).toBe(
      'Time-limited right to work (follow-up check due by 27th Oct 2027)',
    );
  });

  it('no right to work completes with that result', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'share-code', share_code: 'WNR345678' });
    const a = await activity(k.activityId);
    expect([a.state, a.result_data.outcome]).toEqual(['ca-complete', 'no-right']);
  });

  it('no profile found waits for a decision; the manual check then completes it', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'share-code', share_code: 'WNF345678' });
    expect((await activity(k.activityId)).state).toBe('ca-pending-activity-decision');
    const res = await call(admin, 'POST', `/api/case-activities/${k.activityId}/rtw-check/`, {
      outcome: 'permanent',
      documents: ['british-passport'],
      notes: 'Shown in person.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const a = await activity(k.activityId);
    expect(a.state).toBe('ca-complete');
    expect(a.result_data).toMatchObject({
      method: 'documents',
      outcome: 'permanent',
      share_code: '•••••5678',
      documents: ['British passport (current or expired)'],
      checked_by: expect.stringContaining(''),
      notes: 'Shown in person.',
    });
  });

  it('a Home Office outage is an error, retried by operations, then answered', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'share-code', share_code: 'WER345678' });
    const failed = await activity(k.activityId);
    expect(failed.state).toBe('ca-error-initiating');
    expect(failed.processing_data.last_error).toBe('The Home Office answered 503.');
    const retry = await call(ops, 'POST', `/api/ops/case-activities/${k.activityId}/retry/`, {
      reason: 'Home Office back',
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await t.settle();
    const a = await activity(k.activityId);
    expect([a.state, a.result_data.outcome]).toEqual(['ca-complete', 'permanent']);
  });
});

describe('the manual document check', () => {
  it('documents wait with the agent; staff record the check, audited; the case follows', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'documents' });
    const waiting = await activity(k.activityId);
    expect(waiting.state).toBe('ca-awaiting-agent');
    // no call to the Home Office
    expect(waiting.processing_data.events.map((e) => e.type)).not.toContain('request');
    const url = `/api/case-activities/${k.activityId}/rtw-check/`;
    // checked: an outcome, documents, and an end for a time-limited right
    const bad = await call(admin, 'POST', url, { outcome: 'time-limited', documents: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ expiry_date: ['Required'], documents: ['Required'] });
    const unknown = await call(admin, 'POST', url, {
      outcome: 'permanent',
      documents: ['library-card'],
    });
    expect(unknown.json()).toEqual({ documents: ['Not a document of the right to work list.'] });
    // a viewer may not; another customer's staff do not see it
    expect(
      (await call(viewer, 'POST', url, { outcome: 'permanent', documents: ['british-passport'] }))
        .statusCode,
    ).toBe(403);
    const ok = await call(admin, 'POST', url, {
      outcome: 'time-limited',
      expiry_date: '2027-03-31',
      documents: ['british-passport'],
      notes: '',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ state: 'ca-complete' });
    const a = await activity(k.activityId);
    expect(a.result_data).toMatchObject({
      method: 'documents',
      outcome: 'time-limited',
      expiry_date: '2027-03-31',
      follow_up_date: '2027-03-03',
      forename: 'Priya',
      surname: 'Shah',
    });
    const details = (await call(admin, 'GET', `/api/case-rtw-details/${k.caseId}/`)).json();
    expect(details.verification_method_display).toBe('Manual document check');
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'cases.casertwdetails'),
            eq(auditActions.objectId, String(k.caseId)),
          ),
        ),
    );
    expect(audits.length).toBeGreaterThan(0);
    // the case's only activity finished: the case waits for its decision
    const c = (await call(admin, 'GET', `/api/cases/${k.caseId}/`)).json();
    expect(c.state).toBe('pending-case-decision');
    // finished: no second check
    const again = await call(admin, 'POST', url, {
      outcome: 'permanent',
      documents: ['british-passport'],
    });
    expect(again.json()).toEqual({
      state: ['This check is finished: its result can no longer be changed.'],
    });
  });

  it('operations record it too; another tenant’s activity is not found', async () => {
    const k = await rtwCase();
    await submit(k, { route: 'documents' });
    const res = await call(ops, 'POST', `/api/ops/case-activities/${k.activityId}/rtw-check/`, {
      outcome: 'no-right',
      documents: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await activity(k.activityId)).result_data.outcome).toBe('no-right');
    const theirs = await rtwCase(other);
    const refused = await call(
      admin,
      'POST',
      `/api/case-activities/${theirs.activityId}/rtw-check/`,
      {
        outcome: 'permanent',
        documents: ['british-passport'],
      },
    );
    expect(refused.statusCode).toBe(404);
  });
});
