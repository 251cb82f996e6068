import {
  type CasePortalOut,
  type PortalActivityOut,
  portalProgress,
  requiredConsents,
} from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { portalPayload, renderPortal } from '../portal-test-kit';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const activity = (id: number, code: string): PortalActivityOut => ({
  id,
  activity_type: { code, code_display: code },
  state: 'ca-awaiting-subject',
  state_display: 'Awaiting subject',
  config: {},
});

/** The portal of case 7 with these activities; the person's basic details match the licence. */
function portal(activities: PortalActivityOut[]): CasePortalOut {
  const activityCodes = activities.map((a) => a.activity_type.code);
  const required = requiredConsents(activityCodes);
  const { sections, ...progress } = portalProgress({
    activityCodes,
    requiredConsents: required,
    lastCompletedSection: 'welcome',
  });
  const base = portalPayload({
    activityCodes,
    last: 'welcome',
    basicDetails: {
      case: 7,
      gender: 'female',
      title: 'Ms',
      forename: 'Sarah',
      forename_dbs: '',
      middlename: 'Mary',
      middlename_dbs: '',
      surname: 'Morgan',
      surname_dbs: '',
      email: 'sarah@example.test',
      email_dbs: '',
      dob: '1976-03-11',
      phone_number: '020 7123 4567',
      nin: '',
      nationality: 'GBR',
      online_idv: false,
      locked_fields: [],
    },
  });
  return {
    ...base,
    portal: {
      ...base.portal,
      case_activities: activities,
      required_consents: required,
      sections,
      progress,
    },
  };
}

/** The section's server: no licence saved yet, no consent given yet. */
function server(p: CasePortalOut) {
  return mockFetch((call: Call) => {
    const key = `${call.method} ${call.url}`;
    if (key === 'GET /api/s/case-portal/7/') return { status: 200, body: p };
    if (key === 'PATCH /api/s/case-portal/7/') return { status: 200, body: p };
    if (key === 'GET /api/s/case-driving-licences/7/') return { status: 404, body: {} };
    if (key === 'GET /api/s/consents/') return { status: 200, body: [] };
    if (key === 'POST /api/s/case-driving-licences/') {
      return { status: 201, body: { id: 1, ...(call.body as object), source: 'manual' } };
    }
    if (key === 'POST /api/s/consents/') {
      return {
        status: 201,
        body: { id: 5, ...(call.body as object), status: 'active', expires_at: '2029-11-28' },
      };
    }
    return { status: 404, body: { detail: 'Not found.' } };
  });
}

/** Fills a paper licence matching the person, ticks the mandate and presses Continue. */
async function fillAndContinue(p: CasePortalOut) {
  const calls = server(p);
  renderPortal(7, 'driver-data');
  const type = await screen.findByLabelText(/Licence type/, {}, { timeout: 5000 });
  fireEvent.change(type, { target: { value: 'paper' } });
  fireEvent.change(screen.getByLabelText(/Driving licence number/), {
    target: { value: 'MORGA753116SM9IJ' },
  });
  fireEvent.click(screen.getByLabelText(/I consent to these checks/));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  // the section saved and the frame moved the progress on
  await waitFor(() =>
    expect(calls.some((c) => c.method === 'PATCH' && c.url === '/api/s/case-portal/7/')).toBe(true),
  );
  return calls;
}

const consentsGiven = (calls: Call[]) =>
  calls.filter((c) => c.method === 'POST' && c.url === '/api/s/consents/').map((c) => c.body);

describe('the driver data section asks the DVLA mandate', () => {
  it('for a case with only a licence check: given for the licence check (it needs the mandate)', async () => {
    const calls = await fillAndContinue(portal([activity(31, 'licence-check')]));
    expect(consentsGiven(calls)).toEqual([{ case: 7, case_activity: 31, kind: 'driver-data' }]);
  });

  it('for a case with driver data and a licence check: given for the driver data', async () => {
    const calls = await fillAndContinue(
      portal([activity(31, 'licence-check'), activity(32, 'driver-data')]),
    );
    expect(consentsGiven(calls)).toEqual([{ case: 7, case_activity: 32, kind: 'driver-data' }]);
  });
});
