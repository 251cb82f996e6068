// @postgres: the retention run's expiry statements' plans on a server: the partial indexes of rows still to expire
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCustomer, type TestApp } from '../../../test/helpers.js';
import type { Database, Tx } from '../../db/connection.js';
import { expireAccessLog, expireInstallationRecords } from './expiry.js';

// Issue 34: the hourly run used to read every old webhook delivery and every row of every old
// import again (the endpoint's and the key's index hold the blanked rows too), so its work grew
// with the log. Each statement now goes through a partial index of the rows still to blank
// (migration 0062), which a blanked row leaves; the outbox, the texts and the access log are
// deleted, each through its own index.

let t: TestApp;
let acme: number;

const dialect = new PgDialect();

interface Plan {
  text: string;
  plan: string;
}

/** The owner's transactions of `db`, each raw statement explained first. */
function explaining(db: Database, plans: Plan[]): Database {
  const spy = (tx: Tx): Tx =>
    new Proxy(tx, {
      get(target, prop) {
        if (prop === 'execute') {
          return async (q: SQL) => {
            const rows = await target.execute<{ 'QUERY PLAN': string }>(sql`explain ${q}`);
            plans.push({
              text: dialect.sqlToQuery(q).sql,
              plan: rows.map((r) => r['QUERY PLAN']).join('\n'),
            });
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
    const [endpoint] = await tx.execute<{ id: number }>(sql`insert into webhook_endpoints
        (customer_id, url, events, secret)
      values (${acme}, 'https://hr.example.test/hooks', '{case.created}', 'sealed') returning id`);
    // an endpoint's long log of old deliveries, nearly all blanked by earlier runs
    await tx.execute(sql`insert into webhook_deliveries (customer_id, endpoint_id, event,
        event_id, payload, status, attempts, response_excerpt, created_at)
      select ${acme}, ${endpoint?.id ?? 0}, 'case.created', 'evt_' || g,
        case when g <= 8000 then '{"redacted": "retention"}'::jsonb
          else '{"subject": "Olwen Doe"}'::jsonb end,
        'delivered', 1, case when g <= 8000 then '' else 'ok' end,
        now() - interval '40 days' - g * interval '1 minute'
      from generate_series(1, 8010) g`);
    // old finished imports whose rows were emptied, and one still to empty
    await tx.execute(sql`insert into imports (customer_id, file_name, state, finished_at)
      select ${acme}, 'people-' || g || '.csv', 'completed', now() - interval '40 days'
      from generate_series(1, 20) g`);
    await tx.execute(sql`insert into import_rows (customer_id, import_id, row_number, cells)
      select i.customer_id, i.id, g,
        case when i.file_name = 'people-20.csv' then '["Olwen", "Doe"]'::jsonb
          else '[]'::jsonb end
      from imports i cross join generate_series(1, 400) g where i.customer_id = ${acme}`);
    // the outbox's many young messages (the oldest first by id)
    await tx.execute(sql`insert into outbox_emails ("to", subject, text, created_at)
      select 'p' || g || '@x.test', 'Your check', 'Dear', now() - g * interval '1 minute'
      from generate_series(1, 20000) g`);
    await tx.execute(sql`insert into outbox_sms ("to", body, created_at)
      select '+4477009' || lpad(g::text, 5, '0'), 'Your check', now() - g * interval '1 minute'
      from generate_series(1, 20000) g`);
    // a record of who saw what of many rows, a few past the period
    await tx.execute(sql`insert into record_views (customer_id, case_id, item_kind, item_id,
        item_label, how, actor_type, actor_id, actor_name, window_start, first_seen_at,
        last_seen_at)
      select ${acme}, g % 500, 'document', g, 'passport', 'page', 'ProductUser', g % 50,
        'Someone', now() - g * interval '1 hour', now() - g * interval '1 hour',
        now() - g * interval '1 hour'
      from generate_series(1, 20000) g`);
    for (const table of [
      'webhook_deliveries',
      'imports',
      'import_rows',
      'record_views',
      'outbox_emails',
      'outbox_sms',
    ]) {
      await tx.execute(sql`analyze ${sql.identifier(table)}`);
    }
  });
});
afterAll(() => t?.close());

const of = (plans: Plan[], table: string) => plans.filter((p) => p.text.includes(table));

describe("the retention run's expiry plans", () => {
  it('reads only the webhook deliveries and import rows still to blank, by partial index', async () => {
    const plans: Plan[] = [];
    const out = await expireInstallationRecords(explaining(t.db, plans), t.clock.now());
    expect(out).toMatchObject({ webhook_payloads: 10, import_rows: 400 });

    const [deliveries] = of(plans, 'update webhook_deliveries');
    expect(deliveries?.plan, deliveries?.text).toMatch(/webhook_deliveries_unexpired_idx/);
    expect(deliveries?.plan).not.toMatch(/webhook_deliveries_endpoint_idx/);
    expect(deliveries?.plan).not.toMatch(/Seq Scan on webhook_deliveries/);

    const [rows] = of(plans, 'update import_rows');
    expect(rows?.plan, rows?.text).toMatch(/import_rows_unexpired_idx/);
    expect(rows?.plan).not.toMatch(/import_rows_pkey/);
    expect(rows?.plan).not.toMatch(/Seq Scan on import_rows/);

    // the outbox: the oldest emails by their key, the texts by their time
    const [emails] = of(plans, 'outbox_emails');
    expect(emails?.plan, emails?.text).toMatch(/outbox_emails_pkey/);
    const [texts] = of(plans, 'outbox_sms');
    expect(texts?.plan, texts?.text).toMatch(/outbox_sms_created_idx/);
    // (the endpoints and the imports themselves, one row per endpoint or upload, are read whole)
    for (const p of plans) {
      expect(p.plan, p.text).not.toMatch(/Seq Scan on (outbox|webhook_deliveries|import_rows)/);
    }
  });

  it("deletes a customer's access log past its period by its (customer, last seen) index", async () => {
    const plans: Plan[] = [];
    await expireAccessLog(explaining(t.db, plans), acme, t.clock.now());
    const [views] = of(plans, 'record_views');
    expect(views?.plan, views?.text).toMatch(/record_views_customer_idx/);
    expect(views?.plan).not.toMatch(/Seq Scan on record_views/);
  });
});
