// @postgres: the demo data as `npm start` loads it on a server, read back through pg's parsers

import {
  CASE_STATES,
  DBS_CHECK_CODES,
  isResultDataKind,
  licenceNumberReference,
  RESULT_DATA_SCHEMAS,
} from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import { totpGuardrails } from '../platform/totp.js';
import type { Database } from './connection.js';
import { DEMO_LOGINS, DEMO_PASSWORD, DEMO_TOTP_SECRET, seedDemo } from './seed.js';

// The demo data `npm start` loads on first start, through the API as a newcomer would use it.
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  expect(await seedDemo(db)).toBe(true);
  app = await buildApp({ db });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app.close();
  await drop();
});

const get = async (headers: Record<string, string>, url: string) => {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() };
};

describe('the demo data', () => {
  it('loads once: a second start finds it there', async () => {
    expect(await seedDemo(db)).toBe(false);
  });

  it("publishes Northgate Council's licensing, and shows its officer the licences in every status", async () => {
    const councils = await get({}, '/api/lms/public/customers/');
    expect(councils.body.results.map((c: { name: string }) => c.name)).toEqual([
      'Northgate Council',
    ]);
    const portals = await get({}, '/api/lms/public/application-portals/');
    expect(portals.body.count).toBe(4); // the hackney carriage renewal portal is open too (a renewal has somewhere to go)
    const officer = await login(app, 'admin@northgate.test', DEMO_PASSWORD);
    const listed = await get(officer.headers, '/api/lms/licences/');
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((l: { status: string }) => l.status).sort()).toEqual([
      'active',
      'expired',
      'revoked',
      'suspended',
    ]);
    const groups = await get(officer.headers, '/api/lms/licence-groups/');
    expect(groups.body.count).toBe(2); // one not yet published
  });

  it('lets every printed login in with the demo password (the TOTP one with its code)', async () => {
    for (const [username] of DEMO_LOGINS) {
      const totp =
        username === 'mfa@acme.test'
          ? await generate({ secret: DEMO_TOTP_SECRET, guardrails: totpGuardrails })
          : undefined;
      const me = await login(app, username, DEMO_PASSWORD, totp);
      const session = await get(me.headers, '/api/accounts/check-session/');
      expect([username, session.body.authenticated]).toEqual([username, true]);
    }
  });

  it('tells one story in its dates', async () => {
    const rows = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute<{ problem: string; n: number }>(sql`
        select 'a check completed before its case opened' problem, count(*)::int n
          from case_activities a join cases c on c.id = a.case_id
          where a.completed_at < c.created_at
        union all
        select 'a case completed before it opened', count(*)::int from cases
          where completed_at < created_at
        union all
        select 'a date in the future', count(*)::int from cases
          where greatest(created_at, completed_at, archived_at) > now()
        union all
        select 'a subject added after one of its cases', count(*)::int
          from subjects s join cases c on c.subject_id = s.id where s.created_at > c.created_at
        union all
        select 'a subject login made after its record', count(*)::int
          from subjects s join subject_users u on u.id = s.user_id where u.created_at > s.created_at`),
    );
    expect(rows.filter((r) => Number(r.n) > 0)).toEqual([]);
  });

  it("the dashboard's 'Complete' count and its chart count the same cases", async () => {
    for (const username of ['admin@acme.test', 'admin@northgate.test']) {
      const me = await login(app, username, DEMO_PASSWORD);
      const d = (await get(me.headers, '/api/dashboard/')).body;
      const charted = d.completed_by_week.reduce(
        (n: number, w: { count: number }) => n + w.count,
        0,
      );
      expect([username, charted]).toEqual([username, d.cases_by_state.complete]);
    }
  });

  it('gives both customers processes, subjects and cases in every state', async () => {
    for (const username of ['admin@acme.test', 'admin@northgate.test']) {
      const me = await login(app, username, DEMO_PASSWORD);
      expect((await get(me.headers, '/api/processes/')).body.count).toBeGreaterThan(0);
      expect((await get(me.headers, '/api/subjects/')).body.count).toBeGreaterThan(0);
      const all = await get(me.headers, '/api/cases/?is_archived=all&page_size=100');
      const states = new Set(all.body.results.map((c: { state: string }) => c.state));
      expect([username, [...CASE_STATES].filter((s) => !states.has(s))]).toEqual([username, []]);
    }
  });

  it('has an open case for subject@example.test at Acme Care Ltd, and a viewer who cannot add', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const open = await get(admin.headers, '/api/cases/?search=subject@example.test');
    expect(
      open.body.results.some(
        (c: { state: string; subject: { email: string } }) =>
          c.subject.email === 'subject@example.test' &&
          !['complete', 'cancelled'].includes(c.state),
      ),
    ).toBe(true);
    const viewer = await login(app, 'viewer@acme.test', DEMO_PASSWORD);
    expect((await get(viewer.headers, '/api/cases/')).status).toBe(200);
    const add = await app.inject({
      method: 'POST',
      url: '/api/subjects/',
      headers: viewer.headers,
      payload: { first_name: 'No', last_name: 'Way', email: 'no@way.test' },
    });
    expect(add.statusCode).toBe(403);
  });
});

describe('the demo case data', () => {
  it("gives subject@example.test's open case a history with one gap, idsp current address, documents", async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const open = await get(admin.headers, '/api/cases/?search=subject@example.test');
    const c = open.body.results.find(
      (x: { state: string }) => !['complete', 'cancelled'].includes(x.state),
    );
    const subject = await login(app, 'subject@example.test', DEMO_PASSWORD);
    for (const headers of [admin.headers, subject.headers]) {
      const prefix = headers === subject.headers ? '/api/s' : '/api';
      const addresses = await get(headers, `${prefix}/case-addresses/?case=${c.id}`);
      expect(addresses.body.count).toBe(3);
      expect(addresses.body.gaps).toHaveLength(1);
      expect(addresses.body.results[0]).toMatchObject({ current: true, source: 'idsp' });
      const names = await get(headers, `${prefix}/case-other-names/?case=${c.id}`);
      expect(names.body.results[0].surname_dbs).not.toBe('');
      expect((await get(headers, `${prefix}/case-passports/${c.id}/`)).status).toBe(200);
      expect((await get(headers, `${prefix}/case-driving-licences/${c.id}/`)).body).toMatchObject({
        licence_type: 'photo',
        country: 'GBR',
      });
    }
    // every seeded record passes the rules: saving it unchanged answers 200
    for (const url of [
      `/api/case-basic-details/${c.id}/`,
      `/api/case-birth-details/${c.id}/`,
      `/api/case-passports/${c.id}/`,
      `/api/case-driving-licences/${c.id}/`,
    ]) {
      const res = await app.inject({ method: 'PATCH', url, headers: admin.headers, payload: {} });
      expect([url, res.statusCode, res.body]).toEqual([url, 200, res.body]);
    }
    const list = await get(admin.headers, `/api/case-addresses/?case=${c.id}`);
    for (const a of list.body.results) {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/case-addresses/${a.id}/`,
        headers: admin.headers,
        payload: {},
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it("derives every driving licence number from its holder's surname, date of birth and gender", async () => {
    const rows = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute<{
        case_id: number;
        number: string;
        no_surname: boolean;
        gender: string;
        forename: string;
        forename_dbs: string;
        middlename: string;
        surname: string;
        surname_dbs: string;
        dob: string;
        driver_gender: string | null;
      }>(sql`
        select l.case_id, l.number, l.no_surname, b.gender, b.forename, b.forename_dbs,
               b.middlename, b.surname, b.surname_dbs, to_char(b.dob, 'YYYY-MM-DD') dob,
               (select a.result_data #>> '{driver,gender}' from case_activities a
                  join activity_types t on t.id = a.activity_type_id
                  where a.case_id = l.case_id and t.code = 'driver-data' limit 1) driver_gender
          from case_driving_licences l
          join case_basic_details b on b.customer_id = l.customer_id and b.case_id = l.case_id
          where l.number !~ '^[0-9]{8}$'`),
    );
    const women = rows.filter((r) => r.gender === 'female');
    expect(women.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.gender === 'male')).toBe(true);
    for (const r of rows) {
      const reference = licenceNumberReference({ ...r, dob: r.dob });
      expect([r.case_id, r.number.slice(0, 13)]).toEqual([r.case_id, reference.slice(0, 13)]);
      // a woman's date block has her month + 50 (characters 6-11: decade, month, day, year)
      expect([r.case_id, /^[5-6]$/.test(r.number.charAt(6))]).toEqual([
        r.case_id,
        r.gender === 'female',
      ]);
      // the DVLA's record (the simulator reads the number) agrees with the basic details
      if (r.driver_gender) {
        expect([r.case_id, r.driver_gender.toLowerCase()]).toEqual([r.case_id, r.gender]);
      }
    }
    expect(rows.filter((r) => r.driver_gender === 'Female').length).toBeGreaterThan(0);
  });

  it('gives several Acme cases case data too', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const all = await get(admin.headers, '/api/cases/?page_size=100');
    let withData = 0;
    for (const c of all.body.results) {
      if ((await get(admin.headers, `/api/case-passports/${c.id}/`)).status === 200) withData += 1;
    }
    expect(withData).toBeGreaterThanOrEqual(5);
  });
});

describe('the demo results', () => {
  it('gives every completed check a result as the engine writes it, which the panels show', async () => {
    let checked = 0;
    for (const username of ['admin@acme.test', 'admin@northgate.test']) {
      const me = await login(app, username, DEMO_PASSWORD);
      const all = await get(me.headers, '/api/cases/?is_archived=all&page_size=100');
      for (const c of all.body.results as { id: number }[]) {
        const list = await get(me.headers, `/api/case-activities/?case=${c.id}&page_size=50`);
        for (const a of list.body.results as {
          id: number;
          activity_type: string;
          state: string;
          result_data: Record<string, unknown>;
        }[]) {
          if (a.state !== 'ca-complete' || !isResultDataKind(a.activity_type)) continue;
          // the kind's schema accepts it as it is (the panels read it with the same schema)
          const parsed = RESULT_DATA_SCHEMAS[a.activity_type].safeParse(a.result_data);
          expect([a.id, parsed.success]).toEqual([a.id, true]);
          if ((DBS_CHECK_CODES as readonly string[]).includes(a.activity_type)) {
            // a DBS result, not 'DBS Results not yet available'
            expect([a.id, a.result_data.disclosure]).toEqual([
              a.id,
              expect.objectContaining({
                status: expect.stringMatching(/^(clear|records-held)$/),
                certificate_number: expect.stringMatching(/^\d{12}$/),
              }),
            ]);
            expect(a.result_data.application).toMatchObject({ status: 'Complete' });
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("gives a criminal-record result the applicant's nationality and place of birth from the case data", async () => {
    const rows = await db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.execute<{ nationality: string; birth_country: string; birth_town: string }>(sql`
        select a.result_data #>> '{applicant,nationality}' nationality,
               a.result_data #>> '{applicant,birth_country}' birth_country,
               a.result_data #>> '{applicant,birth_town}' birth_town
          from case_activities a
          join case_basic_details b on b.customer_id = a.customer_id and b.case_id = a.case_id
          join activity_types t on t.id = a.activity_type_id
          where t.code in ('dbs-basic', 'dbs-standard', 'dbs-enhanced') and a.state = 'ca-complete'`),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r).toEqual({ nationality: 'GBR', birth_country: 'GBR', birth_town: 'Leeds' });
    }
  });
});
