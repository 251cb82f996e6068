// @postgres: a data migration's statements run as the owner through node-postgres, as on a server

import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createSubjectUser,
  type TestApp,
} from '../../test/helpers.js';

// Migration 0010 rewrites phone numbers stored as typed into E.164 (issue 14).
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the phone-number backfill', () => {
  it('stores earlier numbers as E.164 and leaves what is no number alone', async () => {
    const typed = [
      '07911 123456',
      '(0161) 496-0732',
      '0033 1 42 68 53 00',
      '+44 20 7946 0958',
      'n/a',
      '',
    ];
    const ids = await t.owner(async (tx) => {
      const c = await createCustomer(tx);
      const out: number[] = [];
      for (const [i, phone] of typed.entries()) {
        const s = await createSubjectUser(tx, {
          customerId: c.id,
          email: `phone-${i}@example.test`,
          phoneNumber: phone,
        });
        out.push(s.id);
      }
      return out;
    });
    const migration = readFileSync(
      new URL('../../drizzle/0011_normalise_phone_numbers.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) {
      await t.owner((tx) => tx.execute(sql.raw(statement)));
    }
    const stored = await t.owner((tx) =>
      tx.execute<{ id: number; phone: string; login: string }>(sql`
        select s.id, s.phone_number phone, u.phone_number login
        from subjects s join subject_users u on u.id = s.user_id order by s.id`),
    );
    const byId = new Map(stored.map((r) => [Number(r.id), [r.phone, r.login]]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      ['+447911123456', '+447911123456'],
      ['+441614960732', '+441614960732'],
      ['+33142685300', '+33142685300'],
      ['+442079460958', '+442079460958'],
      ['n/a', 'n/a'],
      ['', ''],
    ]);
  });
});
