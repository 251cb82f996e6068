// The customer's outstanding activities (/api/outstanding-activities/, issue 28) count their total
// up to OUTSTANDING_COUNT_CAP: past it the page says `count: OUTSTANDING_COUNT_CAP, count_capped:
// true` and gives `next` exactly while a row follows; below it (a small customer, a search, a
// filter) the total is exact and the key is absent. Another customer's activities, and those of a
// closed case, are never listed nor counted.
import { pageOut } from '@kestrel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { OUTSTANDING_COUNT_CAP } from './outstanding-list.js';

let t: TestApp;
let bigAdmin: Client;
let smallAdmin: Client;
let big: number;
let small: number;
let smallCase: number;
const page = pageOut(
  z.object({ id: z.number(), state: z.string(), customer: z.number(), activity_type: z.string() }),
);
/** The big customer's outstanding activities: past the cap by EXTRA. */
const EXTRA = 5;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    big = (await createCustomer(tx, { name: 'Big' })).id;
    small = (await createCustomer(tx, { name: 'Small' })).id;
    for (const [customerId, lastName] of [
      [big, 'Bigsby'],
      [small, 'Smallwood'],
    ] as const) {
      await createAdminAndViewer(tx, customerId, `${lastName.toLowerCase()}.test`);
      const p = await createProcess(tx, { customerId, requirements: ['dbs-enhanced'] });
      const s = await createSubjectUser(tx, { customerId, lastName });
      const c = await createCase(tx, {
        customerId,
        processId: p.id,
        subjectId: s.id,
        state: 'in-progress',
        activityStates: ['ca-awaiting-agent'],
      });
      if (customerId === small) smallCase = c.id;
      // a closed case's activity in the customer's turn: neither listed nor counted
      await createCase(tx, {
        customerId,
        processId: p.id,
        subjectId: s.id,
        state: 'cancelled',
        activityStates: ['ca-pending-activity-decision'],
      });
    }
  });
  // OUTSTANDING_COUNT_CAP + EXTRA - 1 more open cases of the big customer, each with an activity
  // in the customer's turn (copies of its first), set-based
  await t.db.ownerExec(`
    insert into cases (customer_id, process_id, subject_id, state)
      select c.customer_id, c.process_id, c.subject_id, c.state
      from (select * from cases where customer_id = ${big} and state = 'in-progress' limit 1) c,
           generate_series(1, ${OUTSTANDING_COUNT_CAP + EXTRA - 1}) g;
    insert into case_activities (customer_id, case_id, activity_type_id, state, position, config)
      select c.customer_id, c.id, a.activity_type_id, a.state, a.position, a.config
      from cases c
      join lateral (select * from case_activities x where x.customer_id = ${big}
                      and x.state = 'ca-awaiting-agent' limit 1) a on true
      where c.customer_id = ${big}
        and not exists (select 1 from case_activities y where y.customer_id = c.customer_id
          and y.case_id = c.id);
    analyze;`);
  bigAdmin = await login(t.app, 'admin@bigsby.test');
  smallAdmin = await login(t.app, 'admin@smallwood.test');
});
afterAll(() => t.close());

async function get(client: Client, query: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/outstanding-activities/?${query}`,
    headers: client.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const raw: unknown = res.json();
  return { raw, body: page.parse(raw) };
}

describe("the customer's outstanding list: capped total", () => {
  it('counts up to the cap, then says so and offers the next page while rows follow', async () => {
    const { body } = await get(bigAdmin, 'page_size=25');
    expect(body.count).toBe(OUTSTANDING_COUNT_CAP);
    expect(body.count_capped).toBe(true);
    expect(body.results).toHaveLength(25);
    expect(new Set(body.results.map((r) => r.customer))).toEqual(new Set([big]));
    expect(body.next).toContain('page=2');
    // the last page within the cap: more follow
    const last = await get(bigAdmin, `page_size=100&page=${OUTSTANDING_COUNT_CAP / 100}`);
    expect(last.body.results).toHaveLength(100);
    expect(last.body.count_capped).toBe(true);
    expect(last.body.next).toContain(`page=${OUTSTANDING_COUNT_CAP / 100 + 1}`);
    // past the cap: the rest (EXTRA; not the cancelled case's), and no next page
    const rest = await get(bigAdmin, `page_size=100&page=${OUTSTANDING_COUNT_CAP / 100 + 1}`);
    expect(rest.body.results).toHaveLength(EXTRA);
    expect(rest.body.next).toBeNull();
    expect(rest.body.previous).toContain(`page=${OUTSTANDING_COUNT_CAP / 100}`);
    // every activity once across the pages
    const ids = new Set<number>();
    for (let p = 1; p <= OUTSTANDING_COUNT_CAP / 100 + 1; p++) {
      for (const r of (await get(bigAdmin, `page_size=100&page=${p}`)).body.results) ids.add(r.id);
    }
    expect(ids.size).toBe(OUTSTANDING_COUNT_CAP + EXTRA);
  });

  it('below the cap the total is exact and the key is absent; filters and search apply', async () => {
    const one = await get(smallAdmin, 'page_size=25');
    expect(one.body.count).toBe(1);
    expect(one.raw).not.toHaveProperty('count_capped');
    expect(one.body.results.map((r) => r.customer)).toEqual([small]);
    expect(one.body.next).toBeNull();
    // a search by name: the subject of the open case
    expect((await get(smallAdmin, 'search=smallwood')).body.count).toBe(1);
    expect((await get(smallAdmin, 'search=bigsby')).body.count).toBe(0);
    // the other customer's name finds nothing of theirs here, and theirs is capped there
    const many = await get(bigAdmin, 'search=bigsby');
    expect(many.body.count_capped).toBe(true);
    expect((await get(bigAdmin, 'search=smallwood')).body.count).toBe(0);
    // by case, state and kind
    expect((await get(smallAdmin, `case=${smallCase}`)).body.count).toBe(1);
    expect((await get(smallAdmin, 'state=ca-pending-activity-decision')).body.count).toBe(0);
    expect((await get(smallAdmin, 'activity_type=dbs-enhanced')).body.count).toBe(1);
    expect((await get(smallAdmin, 'activity_type=dbs-basic')).body.count).toBe(0);
    // newest change first
    const desc = await get(bigAdmin, 'page_size=5&ordering=-updated_at');
    expect(desc.body.results).toHaveLength(5);
  });

  it('an unknown state is a 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/outstanding-activities/?state=nope',
      headers: smallAdmin.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['state']);
  });
});
