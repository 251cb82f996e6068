// @postgres: the erasure scrub's statements' plans on a server: each narrowed by the audit log's object index
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  type TestApp,
} from '../../../test/helpers.js';
import type { Database, Tx } from '../../db/connection.js';
import { CASE_DATA_CONTENT_TYPES } from '../case-data/case-data.resources.js';
import { RTW_DETAILS_CONTENT_TYPE } from '../dbs-details/dbs-details.service.js';
import { DBS_DETAILS_CONTENT_TYPE } from '../dbs-details/dbs-reset.js';
import { CASE_DATA_AUDIT_TYPES, scrubRedactedAuditCopies } from './redacted-copies.js';

// Issue 34 (review R5): the erasure's scrub of the audit log's case-data values and case labels
// used to filter a customer's whole audit log (`changes->>'case'`, `object_repr like 'Case N (%'`,
// only customer_id indexed). Each statement now names the content types (case data; a case and
// its activities by their ids), so the (customer_id, content_type, object_id) index narrows it.
// The erased person's name as an actor (their own sign-in's rows) is found on the partial
// indexes of subject users' rows (migration 0059).

let t: TestApp;
let acme: number;
let subjectId: number;

const dialect = new PgDialect();

/** The owner's transactions of `db`, each statement about the audit log explained first. */
function explaining(db: Database, plans: { text: string; plan: string }[]): Database {
  const spy = (tx: Tx): Tx =>
    new Proxy(tx, {
      get(target, prop) {
        if (prop === 'execute') {
          return async (q: SQL) => {
            const text = dialect.sqlToQuery(q).sql;
            if (/^\s*update "?(audit_actions|record_views)\b/.test(text)) {
              const rows = await target.execute<{ 'QUERY PLAN': string }>(sql`explain ${q}`);
              plans.push({ text, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
            }
            return target.execute(q);
          };
        }
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'ownerTransaction') {
        return <T>(fn: (tx: Tx) => Promise<T>) => target.ownerTransaction((tx) => fn(spy(tx)));
      }
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const s = await createSubjectUser(tx, { customerId: acme, firstName: 'Pia', lastName: 'Plan' });
    subjectId = s.id;
    const process = await createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] });
    await createCase(tx, { customerId: acme, processId: process.id, subjectId: s.id });
    // a customer's audit log of many rows, few of them case data
    await tx.execute(sql`insert into audit_actions (customer_id, actor_name, verb, content_type,
        object_id, object_repr, changes)
      select ${acme}, 'Alex Admin', 'updated',
        (array['cases.case', 'cases.caseactivity', 'accounts.productuser', 'checks.callback',
          'processes.process', 'cases.casebasicdetails'])[1 + g % 6],
        (g % 5000)::text, 'Case ' || (g % 5000) || ' (Someone Else)',
        jsonb_build_object('case', g % 5000, 'personal', jsonb_build_object('forename', 'X'))
      from generate_series(1, 20000) g`);
    // and a record of who saw what of many rows, the subject's own among them
    await tx.execute(sql`insert into record_views (customer_id, case_id, item_kind, item_id,
        item_label, how, actor_type, actor_id, actor_name, window_start, first_seen_at,
        last_seen_at)
      select ${acme}, g % 5000, 'document', g, 'passport', 'page',
        case when g % 1000 = 0 then 'SubjectUser' else 'ProductUser' end, g % 50, 'Someone',
        now() - g * interval '1 hour', now() - g * interval '1 hour', now()
      from generate_series(1, 20000) g`);
    await tx.execute(sql`analyze audit_actions`);
    await tx.execute(sql`analyze record_views`);
  });
});
afterAll(() => t?.close());

describe("the erasure scrub's plans", () => {
  it('names the case-data content types the scrub filters by', () => {
    expect([...CASE_DATA_AUDIT_TYPES].sort()).toEqual(
      [...CASE_DATA_CONTENT_TYPES, DBS_DETAILS_CONTENT_TYPE, RTW_DETAILS_CONTENT_TYPE].sort(),
    );
  });

  it("finds the case data's values and the case labels through the object index", async () => {
    const plans: { text: string; plan: string }[] = [];
    await scrubRedactedAuditCopies(explaining(t.db, plans), acme, { subjectId });
    const ours = plans.filter(
      (p) => p.text.includes(`? 'personal'`) || p.text.includes(`like 'Case '`),
    );
    // the case data's values (redactions of the subject, its cases) and the cases' labels
    expect(ours).toHaveLength(3);
    for (const p of ours) {
      expect(p.plan, p.text).toMatch(/audit_actions_object_idx/);
      expect(p.plan, p.text).toMatch(/Index Cond: \(.*content_type/);
      expect(p.plan, p.text).not.toMatch(/Seq Scan on audit_actions/);
    }
    // the person's name where they acted or looked with their own sign-in: at this customer,
    // then in the rows of no customer (a login every record of which is erased)
    const actors = plans.filter((p) => p.text.includes(`actor_type = 'SubjectUser'`));
    expect(actors.map((p) => p.text.match(/^\s*update "?(\w+)/)?.[1])).toEqual([
      'audit_actions',
      'record_views',
      'audit_actions',
    ]);
    for (const p of actors) {
      expect(p.plan, p.text).toMatch(/(audit_actions|record_views)_subject_actor_idx/);
      expect(p.plan, p.text).not.toMatch(/Seq Scan/);
    }
  });
});
