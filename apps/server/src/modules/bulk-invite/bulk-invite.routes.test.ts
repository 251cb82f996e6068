import {
  BULK_INVITE_EMAIL_IN_FILE,
  BULK_INVITE_NOTHING_VALID,
  BULK_INVITE_OTHER_NAME,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { cases } from '../cases/cases.table.js';
import { subjects } from '../subjects/subjects.table.js';

let t: TestApp;
let acme: number;
let other: number;
let process: number;
let otherProcess: number;
let existing: number;

const admin = () => login(t.app, 'admin@acme.test');
const post = (c: Client, url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: c.headers, payload: payload as object });
const PREVIEW = '/api/cases/bulk-invite/preview/';
const CONFIRM = '/api/cases/bulk-invite/';

const CSV = [
  'First name,Surname,E-mail,Mobile',
  'Ada,Lovelace,ada@bulk.test,07911 123456',
  'Bob,,not-an-email,',
  'Kim,Known,kim@bulk.test,',
  '',
  'Carl,Repeat,ada@bulk.test,',
  'Dee,Stranger,known2@bulk.test,',
].join('\r\n');

const casesOf = (customerId: number) =>
  t.owner((tx) => tx.select().from(cases).where(eq(cases.customerId, customerId)));

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
    process = (await createProcess(tx, { customerId: acme, requirements: ['basic-details'] })).id;
    otherProcess = (await createProcess(tx, { customerId: other })).id;
    existing = (
      await createSubjectUser(tx, {
        customerId: acme,
        email: 'kim@bulk.test',
        firstName: 'Kim',
        lastName: 'Known',
      })
    ).id;
    await createSubjectUser(tx, {
      customerId: acme,
      email: 'known2@bulk.test',
      firstName: 'Dana',
      lastName: 'Other',
    });
  });
});
afterAll(() => t.close());

describe('bulk invite from a CSV', () => {
  it('previews every row with its errors, writing nothing', async () => {
    const a = await admin();
    const res = await post(a, PREVIEW, { process, csv: CSV });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.columns).toEqual({
      first_name: 'First name',
      last_name: 'Surname',
      email: 'E-mail',
      phone_number: 'Mobile',
    });
    expect(body.valid_rows).toBe(2);
    expect(body.invalid_rows).toBe(3);
    const byRow = Object.fromEntries(
      body.rows.map((r: { row_number: number }) => [r.row_number, r]),
    );
    expect(byRow[2]).toMatchObject({ email: 'ada@bulk.test', subject_id: null, errors: null });
    expect(Object.keys(byRow[3].errors).sort()).toEqual(['email', 'last_name']);
    expect(byRow[4]).toMatchObject({ subject_id: existing, errors: null });
    expect(byRow[6].errors).toEqual({ email: [BULK_INVITE_EMAIL_IN_FILE] });
    expect(byRow[7].errors).toEqual({ email: [BULK_INVITE_OTHER_NAME] });
    expect(await casesOf(acme)).toHaveLength(0);
  });

  it('confirming opens a case for each good row (new or existing subject), invites, audits', async () => {
    const a = await admin();
    const res = await post(a, CONFIRM, { process, csv: CSV });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.created.map((c: { row_number: number }) => c.row_number)).toEqual([2, 4]);
    expect(body.skipped.map((r: { row_number: number }) => r.row_number)).toEqual([3, 6, 7]);
    const made = await casesOf(acme);
    expect(made).toHaveLength(2);
    expect(made.every((c) => c.processId === process)).toBe(true);
    expect(body.created[1].subject_id).toBe(existing);
    const [ada] = await t.owner((tx) =>
      tx
        .select()
        .from(subjects)
        .where(and(eq(subjects.customerId, acme), eq(subjects.email, 'ada@bulk.test'))),
    );
    expect(ada?.phoneNumber).toBe('+447911123456');
    await t.settle();
    const mails = await t.owner((tx) =>
      tx.select().from(outboxEmails).where(eq(outboxEmails.to, 'ada@bulk.test')),
    );
    expect(mails).toHaveLength(1);
    const audits = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.customerId, acme)),
    );
    expect(
      audits.filter((x) => x.verb === 'created' && x.contentType === 'cases.case'),
    ).toHaveLength(2);
    const summary = audits.find((x) => x.objectRepr === 'Bulk invite: 2 cases');
    expect(summary?.changes).toMatchObject({ process, skipped_rows: [3, 6, 7] });
  });

  it('the same file again: Ada is now known too, the repeated row still refused', async () => {
    const a = await admin();
    const res = await post(a, PREVIEW, { process, csv: CSV });
    expect(res.json().rows[0]).toMatchObject({ row_number: 2, errors: null });
    expect(res.json().rows[0].subject_id).toEqual(expect.any(Number));
  });

  it('refuses a file with no good row, a header without its columns, and an empty file', async () => {
    const a = await admin();
    const bad = await post(a, CONFIRM, { process, csv: 'first_name,last_name,email\nX,,y\n' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ csv: [BULK_INVITE_NOTHING_VALID] });
    const noCols = await post(a, PREVIEW, { process, csv: 'name,email\nX Y,x@y.test\n' });
    expect(noCols.statusCode).toBe(400);
    expect(noCols.json().csv[0]).toContain('first name, last name');
    const empty = await post(a, PREVIEW, { process, csv: 'first_name,last_name,email\n' });
    expect(empty.statusCode).toBe(400);
    const unread = await post(a, PREVIEW, { process, csv: 'a,"b\nc' });
    expect(unread.statusCode).toBe(400);
    expect(unread.json().csv[0]).toMatch(/could not be read/);
    const noBody = await post(a, PREVIEW, {});
    expect(noBody.statusCode).toBe(400);
    expect(Object.keys(noBody.json()).sort()).toEqual(['csv', 'process']);
  });

  it("keeps to the customer: another customer's process is unknown; a viewer may not", async () => {
    const a = await admin();
    const theirs = await post(a, PREVIEW, { process: otherProcess, csv: CSV });
    expect(theirs.statusCode).toBe(400);
    expect(Object.keys(theirs.json())).toEqual(['process']);
    const v = await login(t.app, 'viewer@acme.test');
    expect((await post(v, PREVIEW, { process, csv: CSV })).statusCode).toBe(403);
    expect((await post(v, CONFIRM, { process, csv: CSV })).statusCode).toBe(403);
    const anon = await t.app.inject({
      method: 'POST',
      url: CONFIRM,
      payload: { process, csv: CSV },
    });
    expect([401, 403]).toContain(anon.statusCode);
    expect(await casesOf(other)).toHaveLength(0);
  });
});
