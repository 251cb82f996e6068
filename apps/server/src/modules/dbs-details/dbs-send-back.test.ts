import { DBS_DETAILS_MESSAGES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, ManualClock, type TestApp } from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { multipart, pngFile } from '../case-documents/test-files.js';

/*
 * Issue 27: a standard DBS application waiting for verification or countersigning, sent back to
 * the person, loses its verification (its DBS details go back to pending, audited, in the
 * send-back's transaction): what they change and resubmit is verified again before it can go.
 */

const days = new ManualClock(new Date());
const world = kindsWorld({ providerClock: days });
const { call } = world;
let t: TestApp;
let admin: Client;
let ops: Client;
beforeAll(() => {
  ({ t, admin, ops } = world);
});

const today = () => days.now().toISOString().slice(0, 10);

async function fillAndSubmit(subject: Client, caseId: number): Promise<void> {
  const basic = await call(subject, 'PUT', `/api/s/case-basic-details/${caseId}/`, {
    gender: 'female',
    title: 'Ms',
    forename: 'Ada',
    surname: 'Smith',
    dob: '1985-12-10',
    phone_number: '07911 123456',
    nin: 'ab 12 34 56 c',
    nationality: 'GBR',
  });
  expect(basic.statusCode, basic.body).toBe(200);
  const address = await call(subject, 'POST', '/api/s/case-addresses/', {
    case: caseId,
    country: 'GBR',
    line_one: '1 High Street',
    town: 'Leeds',
    postcode: 'LS1 4AP',
    from_date: '2015-01-01',
    current: true,
  });
  expect(address.statusCode, address.body).toBe(201);
  for (const type of ['passport', 'bank-statement', 'utility-bill']) {
    const { payload, contentType } = multipart([
      { name: 'case', value: String(caseId) },
      { name: 'document_type', value: type },
      { name: 'collector', value: 'identity' },
      { name: 'file', value: await pngFile(), filename: `${type}.png`, contentType: 'image/png' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/s/case-documents/',
      headers: { ...subject.headers, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const chosen = await call(subject, 'PATCH', `/api/s/case-dbs-details/${caseId}/`, {
    idv_option: 'in-person',
    in_person_expected_date: today(),
  });
  expect(chosen.statusCode, chosen.body).toBe(200);
  await world.submitPortal(subject, caseId, ['welcome', 'basic-details', 'dbs-standard']);
}

const routesOf = async (caseId: number) =>
  (await call(admin, 'GET', `/api/case-documents/?case=${caseId}`))
    .json()
    .results.map((d: { route_index: number | null }) => d.route_index);

describe('sending a DBS application back to the person', () => {
  it.each([
    { by: 'the customer', path: '/api' },
    { by: 'operations', path: '/api/ops' },
  ] as const)(
    'by $by after verification: its details go back to pending, audited; the resubmission is verified again',
    async (c) => {
      const k = await world.subjectCase({
        requirements: ['basic-details', 'dbs-standard'],
        activityAt: 1,
      });
      await fillAndSubmit(k.subject, k.caseId);
      await t.settle();
      expect((await world.activity(k.activityId)).state).toBe('ca-awaiting-agent');
      const details = `/api/case-dbs-details/${k.caseId}/`;
      const verified = await call(admin, 'POST', `${details}verify/`, {
        discrepancy_notes: 'Middle name missing',
      });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(await routesOf(k.caseId)).toEqual([1, 1, 1]);
      const before = (await call(admin, 'GET', details)).json();
      expect(before.state).toBe('verified');

      const who = c.path === '/api/ops' ? ops : admin;
      const sent = await call(who, 'PATCH', `${c.path}/case-activities/${k.activityId}/`, {
        state: 'ca-awaiting-subject',
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toMatchObject({ state: 'ca-awaiting-subject' });
      const reset = (await call(admin, 'GET', details)).json();
      expect(reset).toMatchObject({
        state: 'pending',
        verified_by: null,
        verified_at: null,
        identity_route: null,
        countersigned_by: null,
        countersigned_at: null,
        // what staff noted is kept
        discrepancy_notes: 'Middle name missing',
      });
      expect(await routesOf(k.caseId)).toEqual([null, null, null]);
      const audits = await t.owner((tx) =>
        tx
          .select()
          .from(auditActions)
          .where(
            and(
              eq(auditActions.contentType, 'cases.casedbsdetails'),
              eq(auditActions.objectId, String(k.caseId)),
            ),
          )
          .orderBy(auditActions.id),
      );
      expect(audits.at(-1)?.changes).toMatchObject({
        fields: ['state', 'identity_route', 'documents'],
        personal: { state: ['verified', 'pending'], identity_route: [1, null] },
      });

      // the person changes how they will show their documents, and submits again
      const changed = await call(k.subject, 'PATCH', `/api/s/case-dbs-details/${k.caseId}/`, {
        idv_option: 'video-call',
        video_call_date: today(),
      });
      expect(changed.statusCode, changed.body).toBe(200);
      await world.submitPortal(k.subject, k.caseId, []);
      await t.settle();
      const waiting = await world.activity(k.activityId);
      expect(waiting.state).toBe('ca-awaiting-agent');
      expect(waiting.processing_data.reference).toBeNull();
      // staff must verify again before countersigning
      const early = await call(admin, 'POST', `${details}countersign/`);
      expect(early.statusCode).toBe(400);
      expect(early.json()).toEqual({ state: [DBS_DETAILS_MESSAGES.verifyFirst] });
      const again = await call(admin, 'POST', `${details}verify/`, {});
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ state: 'verified', idv_option: 'video-call' });
    },
  );
});
