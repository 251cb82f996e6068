// Capped totals (issue 28): the audit log and the case search count their matches up to COUNT_CAP
// and then say `count_capped: true`; exact totals below the cap and from the case counters.
import { pageOut } from '@kestrel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createSubjectUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import { COUNT_CAP } from './list-builder.js';

let t: TestApp;
let big: Client;
let small: Client;
const page = pageOut(z.record(z.string(), z.unknown()));

beforeAll(async () => {
  t = await buildTestApp();
  const [bigId, smallId] = await t.owner(async (tx) => {
    const b = (await createCustomer(tx, { name: 'Big' })).id;
    const s = (await createCustomer(tx, { name: 'Small' })).id;
    await createAdminAndViewer(tx, b, 'big.test');
    await createAdminAndViewer(tx, s, 'small.test');
    const hartley = await createSubjectUser(tx, { customerId: b, lastName: 'Hartley' });
    await createCase(tx, { customerId: b, subjectId: hartley.id, state: 'in-progress' });
    const few = await createSubjectUser(tx, { customerId: s, lastName: 'Hartley' });
    await createCase(tx, { customerId: s, subjectId: few.id, state: 'in-progress' });
    return [b, s];
  });
  // COUNT_CAP more of the big customer's cases (the subject's) and audit rows, set-based.
  await t.db.ownerExec(`
    insert into cases (customer_id, process_id, subject_id, state)
      select c.customer_id, c.process_id, c.subject_id, c.state
      from cases c, generate_series(1, ${COUNT_CAP}) g where c.customer_id = ${bigId};
    insert into audit_actions (customer_id, verb, content_type, object_id, object_repr)
      select ${bigId}, 'created', 'cases.case', g::text, 'Case ' || g
      from generate_series(1, ${COUNT_CAP + 5}) g;
    insert into audit_actions (customer_id, verb, content_type, object_id, object_repr)
      select ${smallId}, 'created', 'cases.case', g::text, 'Case ' || g
      from generate_series(1, 3) g;
    analyze;`);
  big = await login(t.app, 'admin@big.test');
  small = await login(t.app, 'admin@small.test');
});
afterAll(() => t.close());

async function get(client: Client, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: client.headers });
  expect(res.statusCode).toBe(200);
  const body: unknown = res.json();
  return { raw: body, body: page.parse(body) };
}

describe('capped totals', () => {
  it('the audit log counts up to the cap, then says so and still offers the next page', async () => {
    const { body } = await get(big, '/api/audit-actions/?page_size=25');
    expect(body.count).toBe(COUNT_CAP);
    expect(body.count_capped).toBe(true);
    expect(body.results).toHaveLength(25);
    expect(body.next).toContain('page=2');
    // the last page within the cap still has a next one: there are more
    const last = await get(big, `/api/audit-actions/?page_size=100&page=${COUNT_CAP / 100}`);
    expect(last.body.next).toContain(`page=${COUNT_CAP / 100 + 1}`);
  });

  it('below the cap the total is exact and the key is absent', async () => {
    const { raw, body } = await get(small, '/api/audit-actions/?page_size=25');
    // the login itself is audited too
    expect(body.count).toBeGreaterThanOrEqual(3);
    expect(body.count).toBeLessThan(10);
    expect(raw).not.toHaveProperty('count_capped');
  });

  it('the case search counts up to the cap', async () => {
    const { body } = await get(big, '/api/cases/?page_size=25&search=hartley');
    expect(body.count).toBe(COUNT_CAP);
    expect(body.count_capped).toBe(true);
    expect(body.results).toHaveLength(25);
    const few = await get(small, '/api/cases/?page_size=25&search=hartley');
    expect(few.body.count).toBe(1);
    expect(few.raw).not.toHaveProperty('count_capped');
  });

  it('the case list without a search keeps its exact total (the counters)', async () => {
    const { raw, body } = await get(big, '/api/cases/?page_size=25');
    expect(body.count).toBe(COUNT_CAP + 1);
    expect(raw).not.toHaveProperty('count_capped');
    const filtered = await get(big, '/api/cases/?page_size=25&state=in-progress');
    expect(filtered.body.count).toBe(COUNT_CAP + 1);
  });
});
