import type { CasePortalOut, SubjectOnlineIdvOut } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OnlineIdvSection, { TEXTS } from './online-idv';

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const blank: SubjectOnlineIdvOut = {
  session: null,
  ibv_verified: false,
  ibv_session: null,
  manual_idv_approved: false,
  id_profile: null,
  verified: false,
  status: 'not-started',
  url: null,
};
const inProgress: SubjectOnlineIdvOut = {
  ...blank,
  session: 'sim_1',
  status: 'in-progress',
  url: 'http://localhost/idv-simulator/sessions/sim_1/',
};
const passed: SubjectOnlineIdvOut = {
  ...inProgress,
  url: null,
  status: 'passed',
  verified: true,
  id_profile: {
    outcome: 'passed',
    level_of_assurance: 'high',
    schemes: [{ name: 'DBS', requirements_met: true }],
    person: { forename: 'Ada', middlename: '', surname: 'Byron', dob: '1985-12-10' },
    address: {
      line_one: '10 Verified Street',
      line_two: '',
      town: 'London',
      postcode: 'SW1A 1AA',
      country: 'GBR',
      from_date: '2023-11-24',
    },
    failure_reason: null,
    completed_at: '2026-11-24T10:00:00Z',
  },
};
const failed: SubjectOnlineIdvOut = {
  ...inProgress,
  url: null,
  status: 'failed',
  id_profile: {
    outcome: 'failed',
    failure_reason: 'Your identity document could not be verified.',
  },
};

function setup(
  answers: Record<string, (call: Call) => { status: number; body?: unknown }>,
  readOnly = false,
) {
  const calls = mockFetch((call) => {
    const key = `${call.method} ${call.url}`;
    const answer = answers[key];
    return answer ? answer(call) : { status: 404, body: { detail: 'Not found.' } };
  });
  const complete = vi.fn(async () => {});
  const refresh = vi.fn(async () => {});
  renderWithProviders(
    <OnlineIdvSection
      caseId={7}
      section="online-idv"
      portal={{} as CasePortalOut}
      refresh={refresh}
      readOnly={readOnly}
      complete={complete}
    />,
  );
  return { calls, complete, refresh };
}

const GET = 'GET /api/s/case-online-idv/7/';

describe('the online identity check section', () => {
  it('not started: starts the check and sends the person to the provider', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, search: '' });
    const { calls } = setup({
      [GET]: () => ({ status: 200, body: blank }),
      'POST /api/s/case-online-idv/7/start/': () => ({
        status: 201,
        body: { session: 'sim_1', url: 'http://localhost/idv-simulator/sessions/sim_1/' },
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: TEXTS.title })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.start }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('http://localhost/idv-simulator/sessions/sim_1/'),
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(
      'POST /api/s/case-online-idv/7/start/',
    );
  });

  it('a refused start is summarised at the top, linked to the button', async () => {
    setup({
      [GET]: () => ({ status: 200, body: blank }),
      'POST /api/s/case-online-idv/7/start/': () => ({
        status: 502,
        body: {
          detail:
            'The identity check service is not available at the moment. Please try again later.',
        },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.start }));
    const summary = await screen.findByTestId('error-summary');
    expect(summary.textContent).toContain(TEXTS.problem);
    const link = screen.getByRole('link', { name: /not available at the moment/ });
    expect(link.getAttribute('href')).toBe('#idv-start');
  });

  it('in progress: asks for the result on return from the provider', async () => {
    window.history.replaceState(null, '', '/s/case-portal/7/online-idv?idv=return');
    const { calls, refresh } = setup({
      [GET]: () => ({ status: 200, body: inProgress }),
      'POST /api/s/case-online-idv/7/refresh/': () => ({ status: 200, body: passed }),
    });
    expect(await screen.findByText(TEXTS.passed)).toBeTruthy();
    expect(calls.filter((c) => c.url.endsWith('/refresh/'))).toHaveLength(1);
    expect(refresh).toHaveBeenCalled();
  });

  it('in progress without a result: says so, and offers to go back to the provider', async () => {
    setup({
      [GET]: () => ({ status: 200, body: inProgress }),
      'POST /api/s/case-online-idv/7/refresh/': () => ({ status: 200, body: inProgress }),
    });
    expect(await screen.findByText(TEXTS.inProgress)).toBeTruthy();
    expect(screen.getByRole('link', { name: TEXTS.resume }).getAttribute('href')).toBe(
      inProgress.url,
    );
    fireEvent.click(screen.getByRole('button', { name: TEXTS.checkResult }));
    expect(await screen.findByText(TEXTS.stillWaiting)).toBeTruthy();
  });

  it('passed: shows the verified data as locked, and Continue completes the section', async () => {
    const { complete } = setup({ [GET]: () => ({ status: 200, body: passed }) });
    const details = await screen.findByTestId('idv-verified-details');
    expect(details.textContent).toContain('Ada Byron');
    expect(details.textContent).toContain('10 December 1985');
    expect(details.textContent).toContain('10 Verified Street, London, SW1A 1AA');
    expect(details.textContent).toContain('(locked)');
    expect(screen.queryByRole('button', { name: TEXTS.start })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: TEXTS.continue }));
    await waitFor(() => expect(complete).toHaveBeenCalled());
  });

  it('failed: says why and what happens next, and lets the person continue', async () => {
    const { complete } = setup({ [GET]: () => ({ status: 200, body: failed }) });
    expect(await screen.findByText(TEXTS.failed)).toBeTruthy();
    expect(screen.getByText('Your identity document could not be verified.')).toBeTruthy();
    expect(screen.getByText(TEXTS.failedNext)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: TEXTS.continue }));
    await waitFor(() => expect(complete).toHaveBeenCalled());
  });

  it('read-only after submission: no buttons', async () => {
    setup({ [GET]: () => ({ status: 200, body: blank }) }, true);
    expect(await screen.findByText(TEXTS.intro)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('a failed load offers to try again', async () => {
    setup({ [GET]: () => ({ status: 500, body: {} }) });
    expect(await screen.findByText(TEXTS.loadFailed)).toBeTruthy();
    expect(screen.getByRole('button', { name: TEXTS.retry })).toBeTruthy();
  });
});
