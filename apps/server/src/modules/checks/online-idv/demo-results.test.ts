import { ACTIVITY_KINDS } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/helpers.js';
import type { Database } from '../../../db/connection.js';
import { seedDemo } from '../../../db/seed.js';
import { DEMO_IDV_APPROVAL_REASON } from './demo-results.js';

// The demo's online identity and right-to-work cases (this folder's and rtw/demo-results.ts):
// every stage for both customers, with the result data the kinds' schemas accept.
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  expect(await seedDemo(db)).toBe(true);
}, 180_000);
afterAll(async () => {
  await drop();
});

type Row = {
  customer_id: number;
  code: 'online-idv' | 'rtw';
  surname: string;
  state: string;
  case_state: string;
  result_data: Record<string, unknown>;
  rtw_state: string | null;
};

async function rows(): Promise<Row[]> {
  return db.transaction({ scope: 'all', customerId: null }, async (tx) => [
    ...(await tx.execute<Row>(sql`
      select a.customer_id, t.code, s.last_name surname, a.state, c.state case_state,
        a.result_data, r.state_display rtw_state
      from case_activities a
      join activity_types t on t.id = a.activity_type_id
      join cases c on c.id = a.case_id
      join subjects s on s.id = c.subject_id
      left join case_rtw_details r on r.case_id = c.id
      where t.code in ('online-idv', 'rtw')
        and s.last_name in ('Morgan', 'Mismatch', 'Mismatchother', 'Settled', 'Skilled',
          'Notfound', 'Pending')
      order by a.customer_id, a.id`)),
  ]);
}

describe('the online identity and right-to-work demo', () => {
  it('holds every stage for both customers, each result valid for its kind', async () => {
    const all = await rows();
    const customers = [...new Set(all.map((r) => r.customer_id))];
    expect(customers).toHaveLength(2);
    for (const customerId of customers) {
      const mine = all.filter((r) => r.customer_id === customerId);
      const stages = mine.map((r) => [r.code, r.surname, r.state]);
      expect(stages).toEqual(
        expect.arrayContaining([
          ['online-idv', 'Morgan', 'ca-complete'],
          ['online-idv', 'Mismatch', 'ca-pending-activity-decision'],
          ['online-idv', 'Mismatchother', 'ca-complete'],
          ['rtw', 'Settled', 'ca-complete'],
          ['rtw', 'Skilled', 'ca-complete'],
          ['rtw', 'Notfound', 'ca-pending-activity-decision'],
          ['rtw', 'Pending', 'ca-awaiting-subject'],
        ]),
      );
      for (const r of mine) {
        const parsed = ACTIVITY_KINDS[r.code].result.safeParse(r.result_data);
        expect([r.surname, parsed.success]).toEqual([r.surname, true]);
      }
      const of = (code: string, surname: string) => {
        const r = mine.find((x) => x.code === code && x.surname === surname);
        if (!r) throw new Error(`no ${code} case for ${surname}`);
        return r;
      };
      expect(of('online-idv', 'Morgan').result_data).toMatchObject({
        outcome: 'passed',
        verified: true,
        name_mismatch: null,
        surname: 'Morgan',
        rtw_verified: true,
      });
      expect(of('online-idv', 'Mismatch').result_data).toMatchObject({
        outcome: 'passed',
        name_mismatch: { reason: 'document_previous_name' },
      });
      expect(of('online-idv', 'Mismatchother').result_data).toMatchObject({
        manual_idv_approved: true,
        method: 'manual',
        manual_approval: { by: 'Olivia Ops', reason: DEMO_IDV_APPROVAL_REASON },
        name_mismatch: { reason: 'other' },
      });
      expect(of('rtw', 'Settled').result_data).toMatchObject({
        method: 'share-code',
        outcome: 'permanent',
        follow_up_date: null,
      });
      const limited = of('rtw', 'Skilled');
      expect(limited.result_data).toMatchObject({ outcome: 'time-limited' });
      expect(limited.result_data.follow_up_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(limited.rtw_state).toContain('follow-up check due by');
      expect(of('rtw', 'Notfound').result_data).toMatchObject({ outcome: 'not-found' });
      expect(of('rtw', 'Pending').result_data).toEqual({});
      expect(of('rtw', 'Pending').case_state).not.toBe('complete');
    }
  });
});
