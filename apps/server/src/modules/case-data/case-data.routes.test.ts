import { licenceNumberReference } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProductUser,
  createSubjectUser,
  follow,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import {
  createAddressHistory,
  createCaseBasicDetails,
  createCasePassport,
} from './case-data.factories.js';
import { caseAddresses, caseBasicDetails } from './case-data.table.js';

/** Case data through the API: staff, operations and the subject (spec points 3, 5 and 7). */
let t: TestApp;
let acme: number;
let other: number;
let openCase: number; // Ada's, awaiting her
let submittedCase: number; // Ada's, in progress
let otherSubjectCase: number; // Bob's, same customer
let otherTenantCase: number;
let idspCase: number; // with an address history and an idsp current address
let admin: Client;
let viewer: Client;
let ops: Client;
let ada: Client;

const TODAY = '2026-11-24';

beforeAll(async () => {
  t = await buildTestApp({ clock: new ManualClock(`${TODAY}T09:00:00Z`) });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const adaSubject = await createSubjectUser(tx, {
      customerId: acme,
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Byron',
      dob: '1985-12-10',
    });
    const bob = await createSubjectUser(tx, { customerId: acme, email: 'bob@example.test' });
    openCase = (await createCase(tx, { customerId: acme, subjectId: adaSubject.id })).id;
    submittedCase = (
      await createCase(tx, {
        customerId: acme,
        subjectId: adaSubject.id,
        activityStates: ['ca-awaiting-agent'],
      })
    ).id;
    otherSubjectCase = (await createCase(tx, { customerId: acme, subjectId: bob.id })).id;
    otherTenantCase = (await createCase(tx, { customerId: other })).id;
    idspCase = (await createCase(tx, { customerId: acme, subjectId: bob.id })).id;
    const key = { customerId: acme, caseId: idspCase };
    await createAddressHistory(tx, key, new Date(`${TODAY}T09:00:00Z`));
    await createCaseBasicDetails(
      tx,
      key,
      { forename: 'Bob', surname: 'Stone', dob: '1990-01-02', gender: 'male' },
      { idspFields: ['forename', 'surname', 'dob'] },
    );
    await createCasePassport(tx, key, new Date(`${TODAY}T09:00:00Z`), { source: 'idsp' });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  ops = await login(t.app, 'ops@k.test');
  ada = await login(t.app, 'ada@example.test');
});
afterAll(() => t.close());

const call = (
  c: Client,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

const basic = {
  gender: 'female',
  title: 'Ms',
  forename: 'Ada',
  middlename: 'Zoë',
  middlename_dbs: 'Zoe',
  surname: 'Byron',
  dob: '1985-12-10',
  phone_number: '07911 123456',
  nin: 'ab 12 34 56 c',
  nationality: 'GBR',
};

const auditsOf = (contentType: string, objectId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(
        and(eq(auditActions.contentType, contentType), eq(auditActions.objectId, String(objectId))),
      )
      .orderBy(auditActions.id),
  );

describe('case basic details', () => {
  it('answers a case without details prefilled from its subject, with the read-only email', async () => {
    const res = await call(admin, 'GET', `/api/case-basic-details/${openCase}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      case: openCase,
      forename: 'Ada',
      surname: 'Byron',
      email: 'ada@example.test',
      dob: '1985-12-10',
      gender: '',
      locked_fields: [],
    });
  });

  it('saves with PUT, normalised, audited with the old and new values', async () => {
    const res = await call(admin, 'PUT', `/api/case-basic-details/${openCase}/`, {
      ...basic,
      email: 'ignored@example.test',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      nin: 'AB123456C',
      middlename_dbs: 'Zoe',
      email: 'ada@example.test',
    });
    const [row] = await auditsOf('cases.casebasicdetails', openCase);
    expect(row).toMatchObject({ verb: 'created', customerId: acme });
    // the national insurance number is stored encrypted: the audit keeps it masked (issue 34)
    expect(row?.changes).toMatchObject({ case: openCase, personal: { nin: [null, '•••••456C'] } });
    expect(JSON.stringify(row?.changes)).not.toContain('AB123456C');
  });
});

const rowCount = async (
  table:
    | 'case_basic_details'
    | 'case_addresses'
    | 'case_passports'
    | 'case_other_names'
    | 'case_driving_licences',
  caseId: number,
) => {
  const rows = await t.owner((tx) =>
    tx.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(table)} where case_id = ${caseId}`,
    ),
  );
  return Number(rows[0]?.n ?? 0);
};

describe('case basic details: rules', () => {
  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    [
      'required names',
      { forename: '', surname: ' ' },
      { forename: ['Required'], surname: ['Required'] },
    ],
    ['title by gender', { gender: 'male', title: 'Ms' }, { title: ['Required'] }],
    [
      'an accented name needs its value for DBS',
      { middlename_dbs: '' },
      { middlename_dbs: ['Required'] },
    ],
    ['email for DBS', { email_dbs: 'ada@' }, { email_dbs: ['Invalid email'] }],
    ['phone', { phone_number: '12' }, { phone_number: ['Invalid number'] }],
    ['NI number', { nin: 'QQ123456Z' }, { nin: ['Invalid number'] }],
    ['date of birth in the selector range', { dob: '2026-11-25' }, { dob: ['Date out of range'] }],
    ['nationality', { nationality: 'XXX' }, { nationality: ['Invalid format'] }],
    ['gender', { gender: 'x' }, { gender: ['Required'] }],
  ])('%s: 400 with the exact messages, nothing saved', async (_name, change, expected) => {
    const before = await t.owner((tx) =>
      tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, openCase)),
    );
    const res = await call(admin, 'PUT', `/api/case-basic-details/${openCase}/`, {
      ...basic,
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expected);
    const after = await t.owner((tx) =>
      tx.select().from(caseBasicDetails).where(eq(caseBasicDetails.caseId, openCase)),
    );
    expect(after).toEqual(before);
  });

  it('PATCH changes what it sends; the rules run on the merged record', async () => {
    const ok = await call(admin, 'PATCH', `/api/case-basic-details/${openCase}/`, {
      phone_number: '+44 20 7123 4567',
    });
    expect([ok.statusCode, ok.json()]).toEqual([200, expect.objectContaining({ forename: 'Ada' })]);
    // Stored as E.164 (issue 14), whatever the spacing typed.
    expect(ok.json()).toMatchObject({
      phone_number: '+442071234567',
      forename: 'Ada',
      nin: 'AB123456C',
    });
    const bad = await call(admin, 'PATCH', `/api/case-basic-details/${openCase}/`, {
      gender: 'male',
    });
    expect(bad.json()).toEqual({ title: ['Required'] });
    const audits = await auditsOf('cases.casebasicdetails', openCase);
    expect(audits.at(-1)).toMatchObject({ verb: 'updated' });
    expect(audits.at(-1)?.changes).toEqual({
      case: openCase,
      fields: ['phone_number'],
      personal: { phone_number: ['+447911123456', '+442071234567'] },
    });
  });

  it('a second create is refused; a viewer reads but does not write', async () => {
    const again = await call(admin, 'POST', '/api/case-basic-details/', {
      ...basic,
      case: openCase,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ case: ['basic details with this case already exists.'] });
    expect((await call(viewer, 'GET', `/api/case-basic-details/${openCase}/`)).statusCode).toBe(
      200,
    );
    expect(
      (await call(viewer, 'PATCH', `/api/case-basic-details/${openCase}/`, { nin: '' })).statusCode,
    ).toBe(403);
  });

  it('idsp-provided fields are locked (400 naming each), the others editable; no delete', async () => {
    const url = `/api/case-basic-details/${idspCase}/`;
    const got = (await call(admin, 'GET', url)).json();
    expect(got.locked_fields).toEqual(['forename', 'surname', 'dob']);
    const res = await call(admin, 'PATCH', url, { forename: 'Robert', dob: '1990-01-03', nin: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      forename: ['Provided by the online identity check: it cannot be changed.'],
      dob: ['Provided by the online identity check: it cannot be changed.'],
    });
    const same = await call(admin, 'PATCH', url, { forename: 'Bob', phone_number: '07911 123457' });
    expect(same.json()).toMatchObject({ forename: 'Bob' });
    expect(same.statusCode).toBe(200);
    expect(same.json().phone_number).toBe('+447911123457');
    const del = await call(admin, 'DELETE', url);
    expect(del.statusCode).toBe(400);
    expect(Object.keys(del.json())).toEqual(['forename', 'surname', 'dob']);
    expect(await rowCount('case_basic_details', idspCase)).toBe(1);
  });
});

describe('case birth details', () => {
  it('answers blank until saved; county alternatives for GBR, the country alternative when unsupported', async () => {
    const url = `/api/case-birth-details/${openCase}/`;
    expect((await call(admin, 'GET', url)).json()).toEqual({
      case: openCase,
      country: '',
      country_dbs: '',
      town: '',
      town_dbs: '',
      county: '',
      county_dbs: '',
      locked_fields: [],
    });
    const bad = await call(admin, 'PUT', url, { country: 'ATA', town: 'Zürich' });
    expect(bad.json()).toEqual({ country_dbs: ['Required'], town_dbs: ['Required'] });
    const ok = await call(admin, 'PUT', url, {
      country: 'GBR',
      town: 'Leeds',
      county: 'West Yorkshire',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ country: 'GBR', county: 'West Yorkshire' });
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(404);
    expect((await auditsOf('cases.casebirthdetails', openCase)).map((a) => a.verb)).toEqual([
      'created',
      'deleted',
    ]);
  });
});

describe('case other names', () => {
  it('lists by case, creates with case, patches, deletes; names needing DBS values and date order', async () => {
    const list = (await call(admin, 'GET', `/api/case-other-names/?case=${openCase}`)).json();
    expect(list).toEqual({ count: 0, next: null, previous: null, results: [] });
    const bad = await call(admin, 'POST', '/api/case-other-names/', {
      case: openCase,
      forename: 'Ada',
      surname: "O'Brien-Núñez",
      from_date: '2010-01-01',
      to_date: '2009-12-31',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      surname_dbs: ['Required'],
      to_date: ['To date cannot be before from date.'],
    });
    const created = await call(admin, 'POST', '/api/case-other-names/', {
      case: openCase,
      forename: 'Ada',
      surname: "O'Brien-Núñez",
      surname_dbs: "O'Brien-Nunez",
      from_date: '2005-01-01',
      to_date: '2009-12-31',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(created.json()).toMatchObject({
      case: openCase,
      surname_dbs: "O'Brien-Nunez",
      middlename: '',
    });
    const patched = await call(admin, 'PATCH', `/api/case-other-names/${id}/`, {
      to_date: '2004-12-31',
    });
    expect(patched.json()).toEqual({ to_date: ['To date cannot be before from date.'] });
    const ok = await call(admin, 'PATCH', `/api/case-other-names/${id}/`, {
      to_date: '2010-06-30',
    });
    expect(ok.json().to_date).toBe('2010-06-30');
    expect((await call(admin, 'GET', `/api/case-other-names/?case=${openCase}`)).json().count).toBe(
      1,
    );
    expect((await call(admin, 'DELETE', `/api/case-other-names/${id}/`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `/api/case-other-names/${id}/`)).statusCode).toBe(404);
    expect((await auditsOf('cases.caseothername', id)).map((a) => a.verb)).toEqual([
      'created',
      'updated',
      'deleted',
    ]);
  });

  it('needs the case filter', async () => {
    const res = await call(admin, 'GET', '/api/case-other-names/');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ case: ['Required'] });
    expect((await call(admin, 'GET', '/api/case-other-names/?case=x')).json()).toEqual({
      case: ['Enter a whole number.'],
    });
  });
});

describe('case addresses', () => {
  const address = {
    country: 'GBR',
    line_one: '9 Orchard Close',
    town: 'Derby',
    postcode: 'de1 1aa',
    from_date: '2024-05-25',
    to_date: '2024-11-23',
    source: 'OS',
  };

  it('lists the history newest first with the gap of the last 60 months', async () => {
    const res = await call(admin, 'GET', `/api/case-addresses/?case=${idspCase}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.results.map((a: { source: string }) => a.source)).toEqual(['idsp', 'OS', 'manual']);
    expect(body.results[0]).toMatchObject({
      current: true,
      to_date: null,
      locked_fields: expect.arrayContaining(['line_one', 'postcode']),
    });
    expect(body.results[1].locked_fields).toEqual([]);
    expect(body.gaps).toEqual([
      { from_date: '2024-05-25', to_date: '2024-11-23', message: 'Missing address information' },
    ]);
  });

  it('a gap is filled in one step; the list then has none', async () => {
    const res = await call(admin, 'POST', '/api/case-addresses/', { ...address, case: idspCase });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      postcode: 'DE1 1AA',
      source: 'OS',
      current: false,
      metadata: null,
    });
    const body = (await call(admin, 'GET', `/api/case-addresses/?case=${idspCase}`)).json();
    expect(body.gaps).toEqual([]);
    const [audit] = await auditsOf('cases.caseaddress', res.json().id);
    expect(audit).toMatchObject({ verb: 'created', customerId: acme });
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['GBR postcode required', { postcode: '' }, { postcode: ['Required'] }],
    ['GBR postcode format', { postcode: 'QQ1 1QQ' }, { postcode: ['Invalid format'] }],
    ['end date of a past address', { to_date: null }, { to_date: ['Required'] }],
    ['date order', { to_date: '2024-01-01' }, { to_date: ['To date cannot be before from date.'] }],
    [
      'a line the DBS cannot take',
      { line_one: '9, Orchard Close' },
      { line_one_dbs: ['Required'] },
    ],
    ['unsupported country', { country: 'ATA', postcode: '' }, { country_dbs: ['Required'] }],
    [
      'a second current address',
      { current: true },
      { current: ['There is already a current address.'] },
    ],
    ['a client cannot claim idsp', { source: 'idsp' }, { source: expect.any(Array) }],
  ])('%s: 400, nothing saved', async (_name, change, expected) => {
    const before = await rowCount('case_addresses', idspCase);
    const res = await call(admin, 'POST', '/api/case-addresses/', {
      ...address,
      ...change,
      case: idspCase,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expected);
    expect(await rowCount('case_addresses', idspCase)).toBe(before);
  });

  it('an idsp address cannot be edited or deleted; others can', async () => {
    const [idsp] = await t.owner((tx) =>
      tx
        .select()
        .from(caseAddresses)
        .where(and(eq(caseAddresses.caseId, idspCase), eq(caseAddresses.source, 'idsp'))),
    );
    const id = idsp?.id ?? 0;
    const res = await call(admin, 'PATCH', `/api/case-addresses/${id}/`, { town: 'Leeds' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      town: ['Provided by the online identity check: it cannot be changed.'],
    });
    const del = await call(admin, 'DELETE', `/api/case-addresses/${id}/`);
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({
      source: ['Provided by the online identity check: it cannot be deleted.'],
    });
    expect((await call(admin, 'GET', `/api/case-addresses/${id}/`)).json().town).toBe('York');
  });
});

describe('case passports', () => {
  const passport = {
    number: 'gb1234567',
    country: 'FRA',
    expiry_date: '2030-01-01',
    dob: '1985-12-10',
  };

  it('404 until created, then 201 and retrieved; number uppercased', async () => {
    const url = `/api/case-passports/${openCase}/`;
    expect((await call(admin, 'GET', url)).statusCode).toBe(404);
    expect((await call(admin, 'PUT', url, passport)).statusCode).toBe(404);
    const created = await call(admin, 'POST', '/api/case-passports/', {
      ...passport,
      case: openCase,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      case: openCase,
      number: 'GB1234567',
      country: 'FRA',
      country_dbs: '',
      dob: '1985-12-10',
      issue_date: null,
      expiry_date: '2030-01-01',
      source: 'manual',
      locked_fields: [],
    });
    expect((await call(admin, 'GET', url)).json().number).toBe('GB1234567');
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['expired', { expiry_date: TODAY }, { expiry_date: ['Date out of range'] }],
    ['over 100 years ahead', { expiry_date: '2126-11-25' }, { expiry_date: ['Date out of range'] }],
    ['number required', { number: '' }, { number: ['Required'] }],
    ['issued in the future', { issue_date: '2026-12-01' }, { issue_date: ['Date out of range'] }],
  ])('%s', async (_name, change, expected) => {
    const res = await call(admin, 'PATCH', `/api/case-passports/${openCase}/`, change);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expected);
  });

  it('a GBR passport expired up to 6 months ago is accepted', async () => {
    const res = await call(admin, 'PATCH', `/api/case-passports/${openCase}/`, {
      country: 'GBR',
      expiry_date: '2026-05-24',
    });
    expect(res.statusCode).toBe(200);
    expect(
      (
        await call(admin, 'PATCH', `/api/case-passports/${openCase}/`, {
          expiry_date: '2026-05-23',
        })
      ).json(),
    ).toEqual({
      expiry_date: ['Date out of range'],
    });
  });

  it('an idsp passport is locked', async () => {
    const res = await call(admin, 'PATCH', `/api/case-passports/${idspCase}/`, { number: 'X123' });
    expect(res.json()).toEqual({
      number: ['Provided by the online identity check: it cannot be changed.'],
    });
    expect((await call(admin, 'DELETE', `/api/case-passports/${idspCase}/`)).statusCode).toBe(400);
    expect(await rowCount('case_passports', idspCase)).toBe(1);
  });
});

describe('case driving licences', () => {
  const ada = { forename: 'Ada', middlename: 'Zoë', surname: 'Byron', dob: '1985-12-10' };
  const licence = () => ({
    licence_type: 'photo',
    number: licenceNumberReference({ ...ada, middlename: 'Zoe' }),
    country: 'GBR',
    expiry_date: '2031-03-01',
  });

  it('404 until created; the number is checked against the holder', async () => {
    const url = `/api/case-driving-licences/${openCase}/`;
    expect((await call(admin, 'GET', url)).statusCode).toBe(404);
    const wrong = await call(admin, 'POST', '/api/case-driving-licences/', {
      ...licence(),
      number: 'SMITH812105AZ9AA',
      case: openCase,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ number: ['Surname mismatch'] });
    const long = await call(admin, 'POST', '/api/case-driving-licences/', {
      ...licence(),
      number: 'BYRON812105AZ9AAXXX',
      case: openCase,
    });
    expect(long.json()).toEqual({ number: ['Max 18 characters'] });
    const dob = await call(admin, 'POST', '/api/case-driving-licences/', {
      ...licence(),
      number: 'BYRON801105AZ9AA',
      case: openCase,
    });
    expect(dob.json()).toEqual({ number: ['Date of birth mismatch'] });
    const ok = await call(admin, 'POST', '/api/case-driving-licences/', {
      ...licence(),
      case: openCase,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      number: 'BYRON812105AZ9AA',
      no_surname: false,
      source: 'manual',
    });
    expect((await call(admin, 'GET', url)).statusCode).toBe(200);
  });

  it('a photocard needs its expiry; a paper licence may have none', async () => {
    const url = `/api/case-driving-licences/${openCase}/`;
    expect((await call(admin, 'PATCH', url, { expiry_date: null })).json()).toEqual({
      expiry_date: ['Required'],
    });
    const paper = await call(admin, 'PATCH', url, { licence_type: 'paper', expiry_date: null });
    expect(paper.statusCode).toBe(200);
    expect(paper.json().expiry_date).toBeNull();
  });
});

describe('case DBS update details', () => {
  it('404 until created, then 201; the certificate number has 12 digits', async () => {
    const url = `/api/case-dbs-update-details/${openCase}/`;
    expect((await call(admin, 'GET', url)).statusCode).toBe(404);
    const bad = await call(admin, 'POST', '/api/case-dbs-update-details/', {
      case: openCase,
      certificate_number: '1234',
      surname: 'Byron',
      dob: '1985-12-10',
    });
    expect(bad.json()).toEqual({ certificate_number: ['Invalid number'] });
    const ok = await call(admin, 'POST', '/api/case-dbs-update-details/', {
      case: openCase,
      certificate_number: '0012 3456 7890',
      surname: 'Byron',
      dob: '1985-12-10',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({
      case: openCase,
      certificate_number: '001234567890',
      surname: 'Byron',
      dob: '1985-12-10',
    });
  });
});

describe('another tenant', () => {
  it("staff get 404 for another customer's case, with no side effect", async () => {
    const before = await t.owner((tx) =>
      tx.select({ n: sql<number>`count(*)::int` }).from(auditActions),
    );
    for (const [method, url, payload] of [
      ['GET', `/api/case-basic-details/${otherTenantCase}/`, undefined],
      ['PUT', `/api/case-basic-details/${otherTenantCase}/`, basic],
      [
        'POST',
        '/api/case-passports/',
        { number: 'A1', country: 'FRA', expiry_date: '2030-01-01', case: otherTenantCase },
      ],
      ['GET', `/api/case-addresses/?case=${otherTenantCase}`, undefined],
      [
        'POST',
        '/api/case-other-names/',
        {
          case: otherTenantCase,
          forename: 'A',
          surname: 'B',
          from_date: '2000-01-01',
          to_date: '2001-01-01',
        },
      ],
    ] as const) {
      const res = await call(admin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await rowCount('case_basic_details', otherTenantCase)).toBe(0);
    expect(await rowCount('case_passports', otherTenantCase)).toBe(0);
    expect(await rowCount('case_other_names', otherTenantCase)).toBe(0);
    const after = await t.owner((tx) =>
      tx.select({ n: sql<number>`count(*)::int` }).from(auditActions),
    );
    expect(after).toEqual(before);
  });
});

describe('operations', () => {
  it('reads and writes any customer’s case data, audited for that customer; the ops audit list hides personal values', async () => {
    const res = await call(ops, 'PUT', `/api/ops/case-basic-details/${otherTenantCase}/`, {
      ...basic,
      forename: 'Olga',
      middlename: '',
      middlename_dbs: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ forename: 'Olga', case: otherTenantCase });
    const [audit] = await auditsOf('cases.casebasicdetails', otherTenantCase);
    expect(audit).toMatchObject({ customerId: other, verb: 'created' });
    expect(audit?.changes).toHaveProperty('personal.forename', [null, 'Olga']);
    const list = await call(
      ops,
      'GET',
      `/api/ops/audit-actions/?content_type=cases.casebasicdetails&object_id=${otherTenantCase}`,
    );
    expect(list.statusCode).toBe(200);
    const row = list.json().results[0];
    expect(row.changes).toEqual({
      case: otherTenantCase,
      fields: expect.arrayContaining(['forename']),
    });
    const one = await call(ops, 'GET', `/api/ops/audit-actions/${row.id}/`);
    expect(one.json().changes).not.toHaveProperty('personal');
    const lookup = await call(ops, 'GET', `/api/ops/case-addresses/?case=${idspCase}`);
    expect(lookup.statusCode).toBe(200);
  });

  it('in a customer session, ops see that customer’s trail without the personal values', async () => {
    const fresh = await login(t.app, 'ops@k.test');
    const started = await call(fresh, 'POST', '/api/ops/session/', { customer: other });
    expect(started.statusCode).toBe(200);
    const inSession = follow(fresh, started);
    const list = await call(
      inSession,
      'GET',
      `/api/audit-actions/?content_type=cases.casebasicdetails&object_id=${otherTenantCase}`,
    );
    expect(list.statusCode).toBe(200);
    const row = list.json().results[0];
    expect(row.changes).toHaveProperty('fields');
    expect(row.changes).not.toHaveProperty('personal');
    const one = await call(inSession, 'GET', `/api/audit-actions/${row.id}/`);
    expect([one.statusCode, one.json().changes]).toEqual([200, row.changes]);
    const dashboard = await call(inSession, 'GET', '/api/dashboard/');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.json().recent_audit.length).toBeGreaterThan(0);
    for (const a of dashboard.json().recent_audit) expect(a.changes).not.toHaveProperty('personal');
  });

  it('is for ops staff only', async () => {
    expect((await call(admin, 'GET', `/api/ops/case-basic-details/${openCase}/`)).statusCode).toBe(
      403,
    );
  });
});

describe('the subject', () => {
  it('reads and writes its own open case', async () => {
    const got = await call(ada, 'GET', `/api/s/case-basic-details/${openCase}/`);
    expect(got.statusCode).toBe(200);
    expect(got.json().email).toBe('ada@example.test');
    const res = await call(ada, 'POST', '/api/s/case-addresses/', {
      case: openCase,
      country: 'GBR',
      line_one: '1 High Street',
      town: 'Leeds',
      postcode: 'LS1 4AP',
      from_date: '2019-01-01',
      current: true,
    });
    expect(res.statusCode).toBe(201);
    const [audit] = await auditsOf('cases.caseaddress', res.json().id);
    expect(audit).toMatchObject({ actorType: 'SubjectUser', customerId: acme });
    const list = (await call(ada, 'GET', `/api/s/case-addresses/?case=${openCase}`)).json();
    expect(list.count).toBe(1);
    // one current address since 2019 covers the 60 months
    expect(list.gaps).toEqual([]);
  });

  it('may read but not write a submitted case', async () => {
    expect((await call(ada, 'GET', `/api/s/case-basic-details/${submittedCase}/`)).statusCode).toBe(
      200,
    );
    const res = await call(ada, 'PUT', `/api/s/case-basic-details/${submittedCase}/`, basic);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(
      'This case has been submitted: its details can no longer be changed.',
    );
    expect(await rowCount('case_basic_details', submittedCase)).toBe(0);
  });

  it("gets 404 for another subject's case and another tenant's, with no side effect", async () => {
    for (const caseId of [otherSubjectCase, otherTenantCase, idspCase]) {
      expect((await call(ada, 'GET', `/api/s/case-basic-details/${caseId}/`)).statusCode).toBe(404);
      expect(
        (await call(ada, 'PUT', `/api/s/case-basic-details/${caseId}/`, basic)).statusCode,
      ).toBe(404);
      expect((await call(ada, 'GET', `/api/s/case-addresses/?case=${caseId}`)).statusCode).toBe(
        404,
      );
    }
    const [bobs] = await t.owner((tx) =>
      tx.select().from(caseAddresses).where(eq(caseAddresses.caseId, idspCase)),
    );
    expect(
      (await call(ada, 'PATCH', `/api/s/case-addresses/${bobs?.id}/`, { town: 'X' })).statusCode,
    ).toBe(404);
    expect((await call(ada, 'DELETE', `/api/s/case-addresses/${bobs?.id}/`)).statusCode).toBe(404);
    expect(await rowCount('case_basic_details', otherSubjectCase)).toBe(0);
  });

  it('is refused the staff and ops routes', async () => {
    expect((await call(ada, 'GET', `/api/case-basic-details/${openCase}/`)).statusCode).toBe(403);
    expect((await call(ada, 'GET', `/api/ops/case-basic-details/${openCase}/`)).statusCode).toBe(
      403,
    );
  });

  it('gets the country map, GBR first, deprecated flagged', async () => {
    const res = await call(ada, 'GET', '/api/s/cases/country-map/');
    const map = res.json();
    expect(Object.keys(map)[0]).toBe('GBR');
    expect(Object.values(map).some((c) => (c as { deprecated: boolean }).deprecated)).toBe(true);
  });
});

describe('a deleted case', () => {
  it('takes its case data with it', async () => {
    const caseId = await t.owner(async (tx) => {
      const c = await createCase(tx, { customerId: acme });
      await createCasePassport(
        tx,
        { customerId: acme, caseId: c.id },
        new Date(`${TODAY}T09:00:00Z`),
      );
      await tx.execute(sql`delete from cases where id = ${c.id}`);
      return c.id;
    });
    expect(await rowCount('case_passports', caseId)).toBe(0);
  });
});
