import type {
  DriverDataResultData,
  KnowledgeTestResultData,
  LicenceCheckResultData,
  RtwResultData,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestApp } from '../../../test/helpers.js';
import { kindsWorld } from '../../../test/kinds.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';

/*
 * The subject's view of a result through the API (GET /api/s/case-activities/{id}/result/, spec
 * point 2: a restricted version of the customer's) for the kinds with staff-only result fields:
 * the licence check's risk, re-check changes and Davis email confirmation, anything a hand edit
 * added outside a kind's schema (who checked, notes), and who recorded a paper knowledge test.
 * Customer staff still read all of it on /api/case-activities/{id}/.
 */

const world = kindsWorld({ ops: false });
let t: TestApp;
let admin: Client;
let subject: Client;
const ids: Record<string, number> = {};

const record: DriverDataResultData = {
  enquiry_code: null,
  mandate_date: '2026-11-01',
  checked_date: '2026-11-02',
  suppressed_since: null,
  include_cpc: true,
  include_tacho: false,
  driver: {
    first_names: 'ADA',
    last_name: 'MORGAN',
    gender: 'Female',
    date_of_birth: '1976-03-11',
    address: '1 Test Street, Swansea, SA6 7JL',
  },
  licence: { type: 'Full', status: 'Valid', status_qualifier: null },
  token: { valid_from: '2020-01-01', valid_to: '2030-01-01', issue_number: '17' },
  endorsements: [
    {
      offence_code: 'SP30',
      offence_date: '2025-05-01',
      conviction_date: '2025-06-01',
      penalty_points: 3,
      removal_date: '2029-05-01',
      disqualification: null,
    },
  ],
  entitlements: [
    {
      category: 'B',
      type: 'Full',
      valid_from: '1995-01-01',
      valid_to: '2046-03-10',
      restrictions: [],
    },
  ],
  tests: [{ category: 'B', test_date: '1995-01-01', status: 'Passed' }],
  cpcs: [{ lgv_valid_to: '2027-01-01', pcv_valid_to: null }],
  dqcs: [],
  tacho_cards: null,
};

/** The licence check's own part: what the subject reads. */
const licenceOwn: LicenceCheckResultData = {
  status: 'Checked',
  last_check_date: '2026-11-02',
  next_check_date: '2027-05-02',
  mandate_date: '2026-11-01',
  licence: {
    number: 'MORGA753116AM9IJ',
    type: 'Full',
    status: 'Valid',
    issue_number: '17',
    valid_from: '2020-01-01',
    valid_to: '2030-01-01',
    points: 3,
  },
  address: '1 Test Street, Swansea, SA6 7JL',
  endorsements: record.endorsements,
  entitlements: record.entitlements,
};
/** What staff alone read: the risk, the last re-check's changes, the Davis email confirmation. */
const licenceStaff: LicenceCheckResultData = {
  risk: 'medium',
  changes: ['New endorsement SP30 2025-05-01', 'Penalty points changed from 0 to 3'],
  confirmed_email: 'ada.m@example.com',
  confirmed_at: '2026-11-01',
};

const paperTest: KnowledgeTestResultData = {
  passed: true,
  percentage: 82,
  completed_at: '2026-11-03T10:00:00Z',
  method: 'paper',
};

/** A right to work checked by hand from the documents: what the subject reads of it. */
const rtwOwn: RtwResultData = {
  method: 'documents',
  outcome: 'permanent',
  forename: 'Ada',
  surname: 'Morgan',
  checked_at: '2026-11-02',
  documents: ['UK passport'],
};
/** The staff member who checked, their notes, the Home Office photo and the share code. */
const rtwStaff: RtwResultData = {
  checked_by: 'Olivia Ops',
  notes: 'Passport seen in person.',
  photo: 'data:image/png;base64,AAAA',
  share_code: 'W7X9K2P4Q',
};

/** What a hand edit by operations may add besides a kind's schema: never the subject's. */
const handEdit = { checked_by: 'Olivia Ops', notes: 'Phoned the DVLA about the SP30.' };

beforeAll(async () => {
  ({ t, admin } = world);
  const k = await world.subjectCase({
    requirements: ['driver-data', 'licence-check', 'knowledge-test', 'rtw'],
    subject: { email: 'ada.views@example.test', firstName: 'Ada', lastName: 'Morgan' },
    activityStates: ['ca-complete'],
    prepare: async (tx, key) => {
      const rows = await tx
        .select({ id: caseActivities.id, code: activityTypes.code })
        .from(caseActivities)
        .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
        .where(eq(caseActivities.caseId, key.caseId));
      for (const r of rows) ids[r.code] = r.id;
      const data: Record<string, Record<string, unknown>> = {
        'driver-data': { ...record, ...handEdit },
        'licence-check': { ...licenceOwn, ...licenceStaff, ...handEdit },
        'knowledge-test': { ...paperTest, recorded_by: 'Olivia Ops' },
        rtw: { ...rtwOwn, ...rtwStaff },
      };
      for (const [code, resultData] of Object.entries(data)) {
        await tx
          .update(caseActivities)
          .set({ resultData })
          .where(eq(caseActivities.id, ids[code] ?? 0));
      }
    },
  });
  subject = k.subject;
});

async function subjectView(code: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/s/case-activities/${ids[code]}/result/`,
    headers: subject.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result_data as Record<string, unknown>;
}

const customerView = async (code: string) =>
  (await world.activity<Record<string, unknown>>(ids[code] ?? 0, admin)).result_data;

describe('the subject’s view of the driving kinds’ results', () => {
  it('a licence check: the licence, status, dates, address and tables; no risk, changes, Davis email or hand notes', async () => {
    expect(await subjectView('licence-check')).toEqual(licenceOwn);
    // customer staff read every field
    expect(await customerView('licence-check')).toEqual({
      ...licenceOwn,
      ...licenceStaff,
      ...handEdit,
    });
  });

  it('driver data: the DVLA record as the kind has it; nothing a hand edit added', async () => {
    expect(await subjectView('driver-data')).toEqual(record);
    expect(await customerView('driver-data')).toEqual({ ...record, ...handEdit });
  });

  it('an enquiry code stays: the subject’s panel words its message from it (ENQ037)', async () => {
    const suppressed: DriverDataResultData = {
      enquiry_code: 'ENQ037',
      mandate_date: '2026-11-01',
      checked_date: '2026-11-05',
      suppressed_since: '2026-11-02',
      include_cpc: false,
      include_tacho: false,
    };
    await t.owner((tx) =>
      tx
        .update(caseActivities)
        .set({ resultData: { ...suppressed, checked_by: 'Olivia Ops' } })
        .where(eq(caseActivities.id, ids['driver-data'] ?? 0)),
    );
    expect(await subjectView('driver-data')).toEqual(suppressed);
  });
});

describe('the subject’s view of a paper knowledge test', () => {
  it('leaves out who recorded it', async () => {
    expect(await subjectView('knowledge-test')).toEqual(paperTest);
    expect(await customerView('knowledge-test')).toMatchObject({ recorded_by: 'Olivia Ops' });
  });
});

describe('the subject’s view of a right to work check', () => {
  it('leaves out the staff member who checked, their notes, the photo and the share code', async () => {
    expect(await subjectView('rtw')).toEqual({ ...rtwOwn, checked_by: null });
    expect(await customerView('rtw')).toEqual({ ...rtwOwn, ...rtwStaff });
  });

  it('keeps the Home Office online check as who checked', async () => {
    const online: RtwResultData = {
      ...rtwOwn,
      method: 'share-code',
      checked_by: 'Home Office online check',
    };
    await t.owner((tx) =>
      tx
        .update(caseActivities)
        .set({ resultData: { ...online, share_code: 'W7X9K2P4Q' } })
        .where(eq(caseActivities.id, ids.rtw ?? 0)),
    );
    expect(await subjectView('rtw')).toEqual(online);
  });
});
