// @postgres: the erasure job's owner scrub of the audit rows of notes and flags over node-postgres
import { ERASURE_RULE } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureWorld, subjectWithCase } from '../../../test/erasure-world.js';
import {
  type Client,
  createFlag,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';

// Issue 34 (review 30, H1): an erasure replaced the staff's notes and flag comments about the
// person, but the audit rows copying them (a note saved: `notes: [before, after]`; a flag
// resolved: its comment, labelled with its message) kept the text.

let t: TestApp;
let acme: number;
let admin: Client;

beforeAll(async () => {
  ({ t, acme, admin } = await erasureWorld());
  await t.owner((tx) =>
    createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] }),
  );
});
afterAll(() => t?.close());

describe('an erasure and the audit log’s copies of the staff’s free text', () => {
  it('removes the notes and the flags’ comments and messages from their audit rows', async () => {
    const w = await t.owner((tx) =>
      subjectWithCase(
        tx,
        acme,
        { firstName: 'Tabitha', lastName: 'Textual', email: 'tabitha.textual@example.test' },
        'ca-in-progress',
      ),
    );
    const [activity] = await t.owner((tx) =>
      tx.select().from(caseActivities).where(eq(caseActivities.caseId, w.case.id)),
    );
    const activityId = activity?.id ?? 0;
    const ops = await login(t.app, 'ops@k.test');
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/ops/case-activities/${activityId}/notes/`,
      headers: ops.headers,
      payload: { notes: 'Textual sounded unwell' },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const onCase = await t.owner((tx) =>
      createFlag(tx, { customerId: acme, caseId: w.case.id, message: 'Textual: gap in history' }),
    );
    const onRecord = await t.owner((tx) =>
      createFlag(tx, { customerId: acme, subjectId: w.subject.id, message: 'Textual moved' }),
    );
    admin = await login(t.app, 'admin@acme.test');
    for (const f of [onCase, onRecord]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/flags/${f.id}/resolve/`,
        headers: admin.headers,
        payload: { comment: 'Textual explained it' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = () =>
      t.owner(async (tx) =>
        (await tx.select().from(auditActions)).filter(
          (a) =>
            (a.contentType === 'cases.caseactivity' && a.objectId === String(activityId)) ||
            (a.contentType === 'flags.flag' &&
              [String(onCase.id), String(onRecord.id)].includes(a.objectId ?? '')),
        ),
      );
    expect(JSON.stringify(await rows())).toContain('Textual');

    const req = await t.app.inject({
      method: 'POST',
      url: '/api/erasure-requests/',
      headers: admin.headers,
      payload: { subject: w.subject.id },
    });
    expect(req.statusCode, req.body).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/erasure-requests/${req.json().id}/decide/`,
      headers: admin.headers,
      payload: { decision: 'approve' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.settle();

    const after = await rows();
    expect(JSON.stringify(after)).not.toContain('Textual');
    const note = after.find((a) => a.contentType === 'cases.caseactivity' && a.verb === 'updated');
    expect(note?.changes).toEqual({ redacted: ERASURE_RULE });
    const resolved = after.filter((a) => a.verb === 'resolved');
    expect(resolved.map((a) => [a.objectRepr, a.changes])).toEqual(
      expect.arrayContaining([
        [`Flag on case ${w.case.id}`, { active: [true, false], redacted: ERASURE_RULE }],
        [`Flag ${onRecord.id}`, { active: [true, false], redacted: ERASURE_RULE }],
      ]),
    );
    expect(resolved).toHaveLength(2);
  });
});
