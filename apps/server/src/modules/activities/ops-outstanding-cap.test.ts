// Operations' outstanding list across customers (issue 29) counts its total up to OPS_COUNT_CAP:
// past it the page says `count: OPS_COUNT_CAP, count_capped: true` and gives `next` exactly while
// a row follows; below it (a customer, a search) the total is exact and the key is absent.
import { pageOut } from '@kestrel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { OPS_COUNT_CAP } from './activities.routes.js';

let t: TestApp;
let ops: Client;
let big: number;
let small: number;
const page = pageOut(z.record(z.string(), z.unknown()));
/** The big customer's activities waiting for operations: past the cap by EXTRA. */
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
      const p = await createProcess(tx, { customerId, requirements: ['dbs-enhanced'] });
      const s = await createSubjectUser(tx, { customerId, lastName });
      await createCase(tx, {
        customerId,
        processId: p.id,
        subjectId: s.id,
        state: 'in-progress',
        activityStates: ['ca-awaiting-ops'],
      });
    }
    await createProductUser(tx, {
      customerId: null,
      username: 'olive@k.test',
      roles: ['ops'],
      firstName: 'Olive',
      lastName: 'Ops',
    });
  });
  // OPS_COUNT_CAP + EXTRA - 1 more of the big customer's cases, each with its activity waiting
  // for operations (copies of the first), set-based
  await t.db.ownerExec(`
    insert into cases (customer_id, process_id, subject_id, state)
      select c.customer_id, c.process_id, c.subject_id, c.state
      from cases c, generate_series(1, ${OPS_COUNT_CAP + EXTRA - 1}) g where c.customer_id = ${big};
    insert into case_activities (customer_id, case_id, activity_type_id, state, position, config)
      select c.customer_id, c.id, a.activity_type_id, a.state, a.position, a.config
      from cases c
      join lateral (select * from case_activities x where x.customer_id = ${big} limit 1) a on true
      where c.customer_id = ${big}
        and not exists (select 1 from case_activities y where y.customer_id = c.customer_id
          and y.case_id = c.id);
    analyze;`);
  ops = await login(t.app, 'olive@k.test');
});
afterAll(() => t.close());

async function get(query: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/ops/outstanding-activities/?${query}`,
    headers: ops.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const raw: unknown = res.json();
  return { raw, body: page.parse(raw) };
}

describe('ops outstanding list: capped total', () => {
  it('counts up to the cap, then says so and offers the next page while rows follow', async () => {
    const { body } = await get('page_size=25');
    expect(body.count).toBe(OPS_COUNT_CAP);
    expect(body.count_capped).toBe(true);
    expect(body.results).toHaveLength(25);
    expect(body.next).toContain('page=2');
    // the last page within the cap: more follow (EXTRA past the cap, the small customer's one)
    const last = await get(`page_size=100&page=${OPS_COUNT_CAP / 100}`);
    expect(last.body.results).toHaveLength(100);
    expect(last.body.count_capped).toBe(true);
    expect(last.body.next).toContain(`page=${OPS_COUNT_CAP / 100 + 1}`);
    // past the cap: the rest, and no next page
    const rest = await get(`page_size=100&page=${OPS_COUNT_CAP / 100 + 1}`);
    expect(rest.body.results).toHaveLength(EXTRA + 1);
    expect(rest.body.next).toBeNull();
    expect(rest.body.previous).toContain(`page=${OPS_COUNT_CAP / 100}`);
  });

  it('below the cap the total is exact and the key is absent', async () => {
    const one = await get(`page_size=25&customer=${small}`);
    expect(one.body.count).toBe(1);
    expect(one.raw).not.toHaveProperty('count_capped');
    expect(one.body.next).toBeNull();
    // a search by name joins subjects in the count too
    const searched = await get('page_size=25&search=smallwood');
    expect(searched.body.count).toBe(1);
    expect(searched.raw).not.toHaveProperty('count_capped');
    const many = await get('page_size=25&search=bigsby');
    expect(many.body.count).toBe(OPS_COUNT_CAP);
    expect(many.body.count_capped).toBe(true);
    // a kind the list has none of
    const none = await get('page_size=25&activity_type=dbs-basic');
    expect(none.body.count).toBe(0);
    expect(none.body.results).toHaveLength(0);
  });
});
