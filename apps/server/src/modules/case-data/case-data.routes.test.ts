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
import { caseAddresses, caseBasicDetails, casePassports } from './case-data.table.js';

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
    expect(row?.changes).toMatchObject({ case: openCase, personal: { nin: [null, 'AB123456C'] } });
  });
});
