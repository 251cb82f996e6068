import { randomBytes } from 'node:crypto';
import { licenceNumberReference } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProductUser,
  createSubjectUser,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { readEncryptionConfig } from '../../config.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import { KeyRing } from '../../providers/storage/key-ring.js';
import { changeActivity } from '../activities/activities.service.js';
import { createCaseBasicDetails, createCasePassport } from '../case-data/case-data.factories.js';
import { caseIdentifierCondition } from '../case-data/identifier-search.js';
import { cases } from '../cases/cases.table.js';
import { collectSubjectRecord } from '../data-requests/subject-record.js';
import { enqueueDocumentKeysAtStart } from './document-keys-job.js';
import {
  ENCRYPTED_COLUMNS,
  FieldCipher,
  fieldCipher,
  installFieldCipher,
  loadFieldCipher,
} from './field-cipher.js';
import {
  fieldKeysCommandOptions,
  fieldKeysJob,
  runFieldKeysCommand,
  sweepAllFieldKeys,
} from './field-keys-job.js';
import { DEVELOPMENT_KEY_ID } from './key-ring.js';
import { maskIdentifier } from './mask.js';
import { ACTIVITY_UNMASKED, AUDIT_ACTIVITY_UNMASKED, AUDIT_UNMASKED } from './masked-copies.js';

/** The most sensitive fields encrypted in the database (issue 34, decision 027). */
let t: TestApp;
let acme: number;
let other: number;
let adaSubject: number;
let apiCase: number; // written through the API
let oldCase: number; // rows stored before encryption (plain), for the backfill
let otherCase: number; // another customer's, same national insurance number
let admin: Client;
let otherAdmin: Client; // the other customer's
let ops: Client;

const TODAY = '2026-11-24';
const NIN = 'AB123456C';
const PASSPORT = 'GB1234567';
const SHARE_CODE = 'W1234567X';
// Ada Byron's photocard licence (the number fits her basic details)
const LICENCE = licenceNumberReference({
  forename: 'Ada',
  middlename: '',
  surname: 'Byron',
  dob: '1985-12-10',
  gender: 'female',
});

const call = (c: Client, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

/** The stored (raw) values of a case's national insurance and passport numbers. */
async function raw(caseId: number) {
  return t.owner(async (tx) => {
    const [b] = await tx.execute<{ nin: string; nin_hash: string }>(
      sql`select nin, nin_hash from case_basic_details where case_id = ${caseId}`,
    );
    const [p] = await tx.execute<{ number: string; number_hash: string }>(
      sql`select number, number_hash from case_passports where case_id = ${caseId}`,
    );
    return { nin: b?.nin, ninHash: b?.nin_hash, passport: p?.number, passportHash: p?.number_hash };
  });
}

/** The case ids the identifier search finds for `term`, every customer's (as the owner). */
async function found(term: string): Promise<number[]> {
  const where = caseIdentifierCondition(term);
  if (!where) return [];
  return t.owner(async (tx) =>
    (await tx.select({ id: cases.id }).from(cases).where(where).orderBy(cases.id)).map((r) => r.id),
  );
}

async function readByApi(caseId: number) {
  const basic = await call(admin, 'GET', `/api/case-basic-details/${caseId}/`);
  const passport = await call(admin, 'GET', `/api/case-passports/${caseId}/`);
  return { basic, passport };
}

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(`${TODAY}T09:00:00Z`) });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createAdminAndViewer(tx, other, 'other.test');
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    adaSubject = (
      await createSubjectUser(tx, {
        customerId: acme,
        email: 'ada@example.test',
        firstName: 'Ada',
        lastName: 'Byron',
        dob: '1985-12-10',
      })
    ).id;
    apiCase = (await createCase(tx, { customerId: acme, subjectId: adaSubject })).id;
    oldCase = (await createCase(tx, { customerId: acme })).id;
    otherCase = (await createCase(tx, { customerId: other })).id;
    // stored before encryption: plain values and no hashes, as the migration leaves them
    for (const [customerId, caseId] of [
      [acme, oldCase],
      [other, otherCase],
    ] as const) {
      const key = { customerId, caseId };
      await createCaseBasicDetails(
        tx,
        key,
        { forename: 'Old', surname: 'Row', dob: '1980-01-01' },
        { nin: 'QQ123456C' },
      );
      await createCasePassport(tx, key, new Date(`${TODAY}T09:00:00Z`), { number: 'P0LD1234' });
    }
  });
  admin = await login(t.app, 'admin@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

describe('fields encrypted in the database', () => {
  it('stores the national insurance and passport numbers encrypted, with keyed hashes; every read answers them plain', async () => {
    const basic = await call(admin, 'PUT', `/api/case-basic-details/${apiCase}/`, {
      gender: 'female',
      title: 'Ms',
      forename: 'Ada',
      surname: 'Byron',
      dob: '1985-12-10',
      phone_number: '07911 123456',
      nin: 'ab 12 34 56 c',
      nationality: 'GBR',
    });
    expect(basic.statusCode, basic.body).toBe(200);
    expect(basic.json().nin).toBe(NIN);
    const passport = await call(admin, 'POST', '/api/case-passports/', {
      case: apiCase,
      number: 'gb1234567',
      country: 'FRA',
      expiry_date: '2030-01-01',
      dob: '1985-12-10',
    });
    expect(passport.statusCode).toBe(201);
    expect(passport.json().number).toBe(PASSPORT);

    const stored = await raw(apiCase);
    for (const [value, plain] of [
      [stored.nin, NIN],
      [stored.passport, PASSPORT],
    ] as const) {
      expect(value).toMatch(new RegExp(`^f1:${DEVELOPMENT_KEY_ID}:[A-Za-z0-9_-]+$`));
      expect(value).not.toContain(plain);
      const body = Buffer.from(String(value).split(':')[2] ?? '', 'base64url');
      expect(body.length).toBeGreaterThan(28);
      expect(body.includes(plain)).toBe(false);
    }
    expect(stored.ninHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.passportHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.ninHash).not.toBe(stored.passportHash);

    const read = await readByApi(apiCase);
    expect(read.basic.json().nin).toBe(NIN);
    expect(read.passport.json().number).toBe(PASSPORT);
    // a change keeps it encrypted and audits the plain change
    const patched = await call(admin, 'PATCH', `/api/case-passports/${apiCase}/`, {
      number: 'GB7654321',
    });
    expect(patched.json().number).toBe('GB7654321');
    expect((await raw(apiCase)).passport).toMatch(/^f1:/);
    await call(admin, 'PATCH', `/api/case-passports/${apiCase}/`, { number: PASSPORT });
    // the right-to-work share code (no hash: never searched)
    const rtw = await call(admin, 'PATCH', `/api/case-rtw-details/${apiCase}/`, {
      route: 'share-code',
      share_code: 'w12 345 67x',
    });
    expect(rtw.statusCode, rtw.body).toBe(200);
    expect(rtw.json().share_code).toBe(SHARE_CODE);
    const [code] = await t.owner((tx) =>
      tx.execute<{ share_code: string }>(
        sql`select share_code from case_rtw_details where case_id = ${apiCase}`,
      ),
    );
    expect(code?.share_code).toMatch(/^f1:development:/);
    expect(code?.share_code).not.toContain(SHARE_CODE);
    expect((await call(admin, 'GET', `/api/case-rtw-details/${apiCase}/`)).json().share_code).toBe(
      SHARE_CODE,
    );
  });

  it('the audit log keeps them masked: no plain copy of any of them in its stored rows', async () => {
    const licence = await call(admin, 'POST', '/api/case-driving-licences/', {
      case: apiCase,
      licence_type: 'photo',
      number: LICENCE.toLowerCase(),
      country: 'GBR',
      expiry_date: '2031-03-01',
    });
    expect(licence.statusCode, licence.body).toBe(201);
    expect(licence.json().number).toBe(LICENCE);
    const rows = await t.owner((tx) =>
      tx.execute<{ content_type: string; changes: string }>(
        sql`select content_type, changes::text as changes from audit_actions
          where customer_id = ${acme} and content_type in ('cases.casebasicdetails',
            'cases.casepassport', 'cases.casedrivinglicence', 'cases.casertwdetails')
          order by id`,
      ),
    );
    // basic details created; passport created and patched twice; licence; share code
    expect(rows.map((r) => r.content_type)).toEqual([
      'cases.casebasicdetails',
      'cases.casepassport',
      'cases.casepassport',
      'cases.casepassport',
      'cases.casertwdetails',
      'cases.casedrivinglicence',
    ]);
    const stored = rows.map((r) => r.changes).join('\n');
    for (const plain of [NIN, PASSPORT, 'GB7654321', SHARE_CODE, LICENCE]) {
      expect(stored).not.toContain(plain);
      expect(stored).toContain(maskIdentifier(plain));
    }
    expect(maskIdentifier('ab 12 34 56 c')).toBe('•••••456C');
    // what the audit log screen reads: the change, its masked old and new values
    const trail = await call(admin, 'GET', '/api/audit-actions/?content_type=cases.casepassport');
    expect(trail.statusCode, trail.body).toBe(200);
    expect(JSON.stringify(trail.json())).toContain('•••••4321');
    expect(JSON.stringify(trail.json())).not.toContain(PASSPORT);
  });

  it('the subject access archive holds them plain', async () => {
    const archive = await t.owner((tx) => collectSubjectRecord(tx, acme, adaSubject));
    const text = JSON.stringify(archive?.record);
    expect(text).toContain(NIN);
    expect(text).toContain(PASSPORT);
    expect(text).toContain(SHARE_CODE);
    expect(text).not.toContain('f1:');
    expect(text).not.toContain('nin_hash');
  });

  it('finds a case by the exact number, however it is typed, and only that case', async () => {
    expect(await found('ab 12 34 56 c')).toEqual([apiCase]);
    expect(await found(PASSPORT.toLowerCase())).toEqual([apiCase]);
    expect(await found('AB123456D')).toEqual([]);
    expect(caseIdentifierCondition('Ada')).toBeNull();
  });

  it('the backfill encrypts rows from before encryption once; a second run changes nothing', async () => {
    expect((await raw(oldCase)).nin).toBe('QQ123456C');
    expect(await found('QQ123456C')).toEqual([]); // no hash yet
    const first = await sweepAllFieldKeys(t.db, fieldCipher(), 1);
    // two old rows of each of the two columns (the API's rows are encrypted already)
    expect(first).toEqual({
      encrypted: 4,
      reencrypted: 0,
      hashed: 0,
      unknownKey: 0,
      skipped: 0,
      masked: 0,
    });
    const stored = await raw(oldCase);
    expect(stored.nin).toMatch(/^f1:development:/);
    expect(stored.passport).toMatch(/^f1:development:/);
    expect(await found('QQ123456C')).toEqual([oldCase, otherCase]);
    const read = await readByApi(oldCase);
    expect(read.basic.json().nin).toBe('QQ123456C');
    expect(read.passport.json().number).toBe('P0LD1234');
    const before = await raw(apiCase);
    expect(await sweepAllFieldKeys(t.db, fieldCipher())).toEqual({
      encrypted: 0,
      reencrypted: 0,
      hashed: 0,
      unknownKey: 0,
      skipped: 0,
      masked: 0,
    });
    expect(await raw(apiCase)).toEqual(before);
  });

  it('the start enqueues the field sweep beside the document sweep: a plain row written meanwhile is encrypted', async () => {
    await t.owner((tx) =>
      tx.execute(sql`update case_passports set number = 'LATE1234', number_hash = ''
        where customer_id = ${other} and case_id = ${otherCase}`),
    );
    await enqueueDocumentKeysAtStart(t.db, fieldCipher().keys.current.id);
    await t.settle();
    const [row] = await t.owner((tx) =>
      tx.execute<{ number: string; number_hash: string }>(
        sql`select number, number_hash from case_passports where case_id = ${otherCase}`,
      ),
    );
    expect(row?.number).toMatch(/^f1:development:/);
    expect(await found('late 1234')).toEqual([otherCase]);
  });

  it('the case list finds a case by its exact NI, passport or licence number, however typed, within the tenant', async () => {
    const ids = async (c: Client, term: string, path = '/api/cases/') => {
      const sep = path.endsWith('&') || path.endsWith('?') ? '' : '?';
      const res = await call(c, 'GET', `${path}${sep}search=${encodeURIComponent(term)}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().results.map((r: { id: number }) => r.id);
    };
    expect(await ids(admin, 'ab 12 34 56 c')).toEqual([apiCase]);
    expect(await ids(admin, PASSPORT.toLowerCase())).toEqual([apiCase]);
    expect(await ids(admin, ` ${LICENCE.slice(0, 5)} ${LICENCE.slice(5).toLowerCase()} `)).toEqual([
      apiCase,
    ]);
    // the same NI number at two customers: each finds its own case only
    expect(await ids(admin, 'qq123456c')).toEqual([oldCase]);
    expect(await ids(otherAdmin, 'qq123456c')).toEqual([otherCase]);
    // another customer's number finds nothing (its passport LATE1234)
    expect(await ids(otherAdmin, 'late 1234')).toEqual([otherCase]);
    expect(await ids(admin, 'late 1234')).toEqual([]);
    expect(await ids(admin, 'AB123456D')).toEqual([]);
    // names and emails are searched as before, between and after identifier searches (shapes)
    expect(await ids(admin, 'byron')).toEqual([apiCase]);
    expect(await ids(admin, 'ada@example')).toEqual([apiCase]);
    expect(await ids(admin, NIN)).toEqual([apiCase]);
    expect(await ids(admin, 'byro')).toEqual([apiCase]);
    // the count and the CSV export agree
    const page = await call(admin, 'GET', '/api/cases/?search=QQ%20123456%20C');
    expect(page.json().count).toBe(1);
    const csv = await call(admin, 'GET', '/api/cases/export/?search=qq123456c');
    expect(csv.statusCode).toBe(200);
    expect(
      csv.body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => Number(l.split(',')[0])),
    ).toEqual([oldCase]);
    // operations staff: in one customer's list, or across every customer (each one's hashes)
    expect(await ids(ops, 'late 1234', `/api/ops/cases/?customer=${other}&`)).toEqual([otherCase]);
    expect(await ids(ops, 'late 1234', `/api/ops/cases/?customer=${acme}&`)).toEqual([]);
    expect(await ids(ops, 'late 1234', '/api/ops/cases/?')).toEqual([otherCase]);
    expect((await ids(ops, 'QQ 123456 c', '/api/ops/cases/?')).sort()).toEqual(
      [oldCase, otherCase].sort(),
    );
    expect(await ids(ops, ` ${LICENCE.toLowerCase()}`, '/api/ops/cases/?')).toEqual([apiCase]);
    expect(await ids(ops, 'AB123456D', '/api/ops/cases/?')).toEqual([]);
    // the count agrees; a name still searches names across customers
    const opsPage = await call(ops, 'GET', '/api/ops/cases/?search=qq123456c');
    expect(opsPage.json().count).toBe(2);
    expect(await ids(ops, 'byron', '/api/ops/cases/?')).toEqual([apiCase]);
    // customer staff keep to their own customer (the other's LATE1234 found by the other only)
    expect(await ids(otherAdmin, 'qq123456c')).toEqual([otherCase]);
    // a name (no digit) is no identifier: no lookup
    expect(caseIdentifierCondition('Byron')).toBeNull();

    // the activity lists: the customer's, and the operations' outstanding list across customers
    await t.owner((tx) =>
      tx.execute(sql`update case_activities set state = 'ca-awaiting-ops'
        where case_id in (${apiCase}, ${oldCase}, ${otherCase})`),
    );
    const caseIds = async (c: Client, path: string, term: string) => {
      const sep = path.includes('?') ? '&' : '?';
      const res = await call(c, 'GET', `${path}${sep}search=${encodeURIComponent(term)}`);
      expect(res.statusCode, res.body).toBe(200);
      return [
        ...new Set(res.json().results.map((r: { case: { id: number } }) => r.case.id)),
      ].sort();
    };
    expect(await caseIds(admin, '/api/case-activities/', 'qq 123456 c')).toEqual([oldCase]);
    expect(await caseIds(otherAdmin, '/api/case-activities/', 'QQ123456C')).toEqual([otherCase]);
    expect(await caseIds(admin, '/api/case-activities/', 'late 1234')).toEqual([]);
    const opsOutstanding = '/api/ops/outstanding-activities/';
    expect(await caseIds(ops, opsOutstanding, 'late 1234')).toEqual([otherCase]);
    expect(await caseIds(ops, opsOutstanding, 'qq123456c')).toEqual([oldCase, otherCase].sort());
    expect(await caseIds(ops, `${opsOutstanding}?customer=${acme}`, 'late 1234')).toEqual([]);
    expect(await caseIds(ops, `${opsOutstanding}?customer=${other}`, 'late 1234')).toEqual([
      otherCase,
    ]);
    expect(await caseIds(ops, opsOutstanding, 'byron')).toEqual([apiCase]);
  });

  it('a missing hash is filled by the sweep; stale ones (a changed index key) by the re-hash sweep', async () => {
    await t.owner((tx) =>
      tx.execute(sql`update case_basic_details set nin_hash = ${'f'.repeat(64)}
        where case_id = ${apiCase}`),
    );
    await t.owner((tx) =>
      tx.execute(sql`update case_passports set number_hash = '' where case_id = ${apiCase}`),
    );
    expect(await found(NIN)).toEqual([]);
    expect(await found(PASSPORT)).toEqual([]);
    const zero = { encrypted: 0, reencrypted: 0, hashed: 0, unknownKey: 0, skipped: 0, masked: 0 };
    expect(await sweepAllFieldKeys(t.db, fieldCipher())).toEqual({ ...zero, hashed: 1 });
    expect(await found(PASSPORT)).toEqual([apiCase]);
    expect(await found(NIN)).toEqual([]); // a stale hash looks like any other
    // the re-hash sweep, as the job runs it (batch by batch, each run enqueuing the next)
    await fieldKeysJob.handle(fieldKeysJob.payload.parse({ rehash: true }), t.app.deps);
    await t.settle();
    expect(await found(NIN)).toEqual([apiCase]);
    expect((await raw(apiCase)).ninHash).not.toBe('f'.repeat(64));
    expect(await sweepAllFieldKeys(t.db, fieldCipher(), 2, { rehash: true })).toEqual(zero);
    // the command line's re-hash (npm run db:rehash: cli.ts field-keys --rehash), at once
    await t.owner((tx) =>
      tx.execute(sql`update case_passports set number_hash = ${'e'.repeat(64)}
        where case_id = ${apiCase}`),
    );
    expect(await found(PASSPORT)).toEqual([]);
    // without --rehash a stale hash is left (it looks like any other)
    expect(await runFieldKeysCommand(t.db, fieldCipher(), fieldKeysCommandOptions([]) ?? {})).toBe(
      'Encrypted fields: 0 encrypted, 0 re-encrypted under development, 0 hashed, 0 unreadable or under a key not configured, 0 changed meanwhile, 0 plain copies masked.',
    );
    expect(await found(PASSPORT)).toEqual([]);
    const options = fieldKeysCommandOptions(['--rehash']);
    expect(options).toEqual({ rehash: true });
    expect(await runFieldKeysCommand(t.db, fieldCipher(), options ?? {})).toBe(
      'Encrypted fields (re-hash): 0 encrypted, 0 re-encrypted under development, 1 hashed, 0 unreadable or under a key not configured, 0 changed meanwhile, 0 plain copies masked.',
    );
    expect(await found(PASSPORT)).toEqual([apiCase]);
    expect(fieldKeysCommandOptions(['--rehash', '--now'])).toBeNull();
  });

  it('the sweep masks the plain copies written before masking: audit rows, a check result and its logged request', async () => {
    const planted = await t.owner(async (tx) => {
      const audits = await tx.execute(sql`update audit_actions
        set changes = jsonb_set(changes, '{personal,nin}', ${JSON.stringify([null, NIN])}::jsonb)
        where customer_id = ${acme} and content_type = 'cases.casebasicdetails' returning id`);
      const activities = await tx.execute(sql`update case_activities
        set result_data = ${JSON.stringify({ applicant: { nin: NIN, surname: 'Byron' }, share_code: SHARE_CODE })}::jsonb,
          processing_data = ${JSON.stringify({ events: [{ type: 'request', body: { share_code: SHARE_CODE, company_name: 'Acme' } }] })}::jsonb
        where case_id = ${apiCase} returning id`);
      return audits.length + activities.length;
    });
    expect(planted).toBeGreaterThanOrEqual(2);
    const stored = async () =>
      t.owner(async (tx) => {
        const audit = await tx.execute<{ t: string }>(
          sql`select changes::text as t from audit_actions where customer_id = ${acme}`,
        );
        const activity = await tx.execute<{ t: string }>(
          sql`select result_data::text || processing_data::text as t from case_activities
            where case_id = ${apiCase}`,
        );
        return [...audit, ...activity].map((r) => r.t).join('\n');
      });
    expect(await stored()).toContain(NIN);
    expect(await stored()).toContain(SHARE_CODE);
    const zero = { encrypted: 0, reencrypted: 0, hashed: 0, unknownKey: 0, skipped: 0, masked: 0 };
    expect(await sweepAllFieldKeys(t.db, fieldCipher(), 1)).toEqual({ ...zero, masked: planted });
    const after = await stored();
    expect(after).not.toContain(NIN);
    expect(after).not.toContain(SHARE_CODE);
    expect(after).toContain('•••••456C');
    expect(after).toContain('"share_code": "•••••567X"');
    expect(await sweepAllFieldKeys(t.db, fieldCipher())).toEqual(zero);
  });

  it("an activity's audit rows keep its result's identifiers masked: new ones written masked, old ones masked by the sweep", async () => {
    const [act] = await t.owner((tx) =>
      tx.execute<{ id: number }>(
        sql`select id from case_activities where case_id = ${apiCase} order by id limit 1`,
      ),
    );
    const id = Number(act?.id);
    // what a DVLA record, a licence check, a DBS application and a right-to-work check hold
    const plain = {
      applicant: { nin: NIN, surname: 'Byron' },
      share_code: SHARE_CODE,
      licence: { number: LICENCE, status: 'valid' },
      record: { driver: { drivingLicenceNumber: LICENCE } },
    };
    const activityAudit = async () =>
      (
        await t.owner((tx) =>
          tx.execute<{ t: string }>(
            sql`select changes::text as t from audit_actions
              where content_type = 'cases.caseactivity' order by id`,
          ),
        )
      ).map((r) => r.t);
    // (a) a change of the result (a hand edit here) is audited with its identifiers masked
    const written = await activityAudit();
    await t.owner((tx) =>
      changeActivity(tx, jobActor(acme), id, { result_data: plain }, new Date()),
    );
    const added = (await activityAudit()).slice(written.length).join('\n');
    expect(added).toContain('"surname": "Byron"');
    expect(added).toContain('•••••456C');
    for (const v of [NIN, SHARE_CODE, LICENCE]) expect(added).not.toContain(v);
    // (b) rows written before that (planted plain), with a hand edit's whole provider logs
    await t.owner(async (tx) => {
      await tx.execute(sql`update case_activities set result_data = '{}'::jsonb where id = ${id}`);
      await recordAudit(tx, jobActor(acme), {
        verb: 'updated',
        contentType: 'cases.caseactivity',
        objectId: id,
        objectRepr: `Case ${apiCase} activity ${id}`,
        customerId: acme,
        changes: {
          result_data: [{ applicant: { nin: NIN } }, plain],
          processing_data: [
            { events: [{ type: 'request', body: { share_code: SHARE_CODE } }] },
            { events: [{ type: 'answer', body: { drivingLicenceNumber: LICENCE } }] },
          ],
        },
      });
    });
    const before = (await activityAudit()).join('\n');
    for (const v of [NIN, SHARE_CODE, LICENCE]) expect(before).toContain(v);
    const zero = { encrypted: 0, reencrypted: 0, hashed: 0, unknownKey: 0, skipped: 0, masked: 0 };
    expect(await sweepAllFieldKeys(t.db, fieldCipher(), 1)).toEqual({ ...zero, masked: 1 });
    const after = (await activityAudit()).join('\n');
    for (const v of [NIN, SHARE_CODE, LICENCE]) expect(after).not.toContain(v);
    expect(after).toContain('"share_code": "•••••567X"');
    expect(await sweepAllFieldKeys(t.db, fieldCipher())).toEqual(zero);
  });

  it('the masking reads only the rows still to mask: its queries use the partial indexes of those rows', async () => {
    // the planner uses a partial index only where the query implies its predicate (migration
    // 0054 holds the same text): with sequential scans off, a mismatch would show a Seq Scan
    const plans = await t.owner(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = async (q: string) =>
        (await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`explain ${q}`)))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      return {
        audit: await plan(
          `select id from audit_actions where id > 0 and ${AUDIT_UNMASKED} order by id limit 200`,
        ),
        activities: await plan(
          `select id from case_activities where id > 0 and ${ACTIVITY_UNMASKED} order by id limit 200`,
        ),
        activityAudit: await plan(
          `select id from audit_actions where id > 0 and ${AUDIT_ACTIVITY_UNMASKED} order by id limit 200`,
        ),
      };
    });
    expect(plans.audit).toContain('audit_actions_unmasked_idx');
    expect(plans.activities).toContain('case_activities_unmasked_idx');
    expect(plans.activityAudit).toContain('audit_actions_activity_unmasked_idx');
    // the indexes hold no masked row: after the sweep above, none of either
    const left = await t.owner((tx) =>
      tx.execute<{ n: number }>(
        sql.raw(`select
        (select count(*) from audit_actions where ${AUDIT_UNMASKED})
        + (select count(*) from case_activities where ${ACTIVITY_UNMASKED})
        + (select count(*) from audit_actions where ${AUDIT_ACTIVITY_UNMASKED}) as n`),
      ),
    );
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('production needs ENCRYPTION_INDEX_KEY beside ENCRYPTION_KEYS', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/kestrel' };
    const keys = `k1:${randomBytes(32).toString('hex')}`;
    expect(() => readEncryptionConfig({ ...production, ENCRYPTION_KEYS: keys })).toThrow(
      'ENCRYPTION_INDEX_KEY is required in production',
    );
    const index = randomBytes(32);
    const c = readEncryptionConfig({
      ...production,
      ENCRYPTION_KEYS: keys,
      ENCRYPTION_INDEX_KEY: index.toString('base64'),
    });
    expect(c.indexKey?.equals(index)).toBe(true);
    expect(() => readEncryptionConfig({ ENCRYPTION_INDEX_KEY: 'short' })).toThrow('32 bytes');
    expect(readEncryptionConfig({ NODE_ENV: 'production' }).indexKey).toBeUndefined();
  });

  it('a rotation re-encrypts every value under the new key (the job, batch by batch); every value stays readable and findable', async () => {
    const development = fieldCipher();
    const rotated = await loadFieldCipher(
      t.db,
      readEncryptionConfig({ ENCRYPTION_KEYS: `2026-11:${randomBytes(32).toString('hex')}` }),
    );
    expect(rotated.keys.ids()).toEqual(['2026-11', DEVELOPMENT_KEY_ID]);
    installFieldCipher(rotated);
    try {
      // before the sweep: old values still readable, new writes under the new key
      expect((await readByApi(apiCase)).basic.json().nin).toBe(NIN);
      // the job itself: one batch per run, each run enqueuing the next
      await fieldKeysJob.handle(fieldKeysJob.payload.parse({}), t.app.deps);
      await t.settle();
      for (const id of [apiCase, oldCase]) {
        const s = await raw(id);
        expect(s.nin).toMatch(/^f1:2026-11:/);
        expect(s.passport).toMatch(/^f1:2026-11:/);
      }
      expect((await raw(otherCase)).nin).toMatch(/^f1:2026-11:/);
      expect(await sweepAllFieldKeys(t.db, rotated)).toMatchObject({ reencrypted: 0 });
      const read = await readByApi(apiCase);
      expect(read.basic.json().nin).toBe(NIN);
      expect(read.passport.json().number).toBe(PASSPORT);
      expect((await readByApi(oldCase)).basic.json().nin).toBe('QQ123456C');
      // the index key does not rotate: the hashes still find the cases
      expect(await found(NIN)).toEqual([apiCase]);

      // a wrong key fails clearly: without the key (not configured), or another key of that id
      const lacking = new FieldCipher(
        new KeyRing([development.keys.current], DEVELOPMENT_KEY_ID),
        randomBytes(32),
      );
      const nin = ENCRYPTED_COLUMNS[0];
      if (!nin) throw new Error('no column');
      const stored = String((await raw(apiCase)).nin);
      expect(() => lacking.decrypt(nin, stored)).toThrow(
        'a field encrypted under key 2026-11, not configured',
      );
      const impostor = new FieldCipher(
        new KeyRing([{ id: '2026-11', key: randomBytes(32) }], '2026-11'),
        randomBytes(32),
      );
      expect(() => impostor.decrypt(nin, stored)).toThrow();
      installFieldCipher(lacking);
      const refused = await call(admin, 'GET', `/api/case-basic-details/${apiCase}/`);
      expect(refused.statusCode).toBe(500);
      expect(refused.body).not.toContain('f1:');
      // the sweep counts what it cannot open and leaves it
      // three national insurance numbers, three passports, one licence, one share code
      expect(await sweepAllFieldKeys(t.db, lacking)).toMatchObject({ unknownKey: 8, encrypted: 0 });
    } finally {
      installFieldCipher(development);
    }
  });
});
