import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DVLA_MANDATE_LABEL } from '../../components/dvla-mandate';
import { resetSession, setSession } from '../../lib/session/session-store';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { subject, subjectIn } from '../../test/sessions';
import CaseDetailPage from './case-detail-page';
import CasesPage from './cases-page';
import ConsentsPage from './consents-page';
import DashboardPage from './dashboard-page';
import DvlaReconsentPage from './dvla-reconsent-page';
import { consent, page, subjectCase } from './fixtures';

function show(path: string, pattern: string, Component: React.ComponentType) {
  const router = createMemoryRouter(
    [
      { path: pattern, Component },
      { path: '*', Component: () => <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const pathOf = (c: Call) => new URL(c.url, 'http://x').pathname;

beforeEach(() => setSession(subjectIn(subject({ first_name: 'Robin' }))));
afterEach(() => {
  vi.unstubAllGlobals();
  resetSession();
});

describe('subject dashboard', () => {
  it('shows every case with what it needs, its progress and ONE next-step button', async () => {
    const calls = mockFetch((c) =>
      pathOf(c) === '/api/s/cases/'
        ? {
            status: 200,
            body: page([
              subjectCase(),
              subjectCase({
                id: 12,
                customer: { id: 2, name: 'Borough Council' },
                submitted: true,
                state: 'in-progress',
                state_display: 'In progress',
                needs: [],
                next_step: null,
                progress: { completed: 8, total: 8, percent: 100, next: 'done' },
                // submitted: nothing waits for the person any more
                case_activities: subjectCase().case_activities.map((a) => ({
                  ...a,
                  state: 'ca-in-progress',
                })),
              }),
            ]),
          }
        : { status: 200, body: page([]) },
    );
    show('/s/dashboard', '/s/dashboard', DashboardPage);
    await screen.findByRole('heading', { name: 'Acme Care' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hello Robin');
    expect(screen.getByTestId('dashboard-summary').textContent).toBe('You have 1 case to finish.');
    const cards = screen.getAllByTestId('subject-case');
    expect(cards).toHaveLength(2);
    const acme = within(cards[0] as HTMLElement);
    // one button per case to do, opening the portal at the next section
    const next = acme.getByRole('link', { name: 'Continue with your address history' });
    expect(next.getAttribute('href')).toBe('/s/case-portal/11/address-history');
    expect(screen.getAllByTestId('next-step')).toHaveLength(1);
    expect(acme.getByTestId('case-needs').textContent).toContain('Address history');
    expect(acme.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(acme.getByText('2 of 8 steps done')).toBeTruthy();
    const council = within(cards[1] as HTMLElement);
    expect(council.getByText(/You have sent everything/)).toBeTruthy();
    expect(council.getByRole('link', { name: 'See the checks' }).getAttribute('href')).toBe(
      '/s/cases/12',
    );
    expect(screen.queryByTestId('dvla-prompt')).toBeNull();
    expect(calls.map(pathOf).sort()).toEqual([
      '/api/lms/s/applications/',
      '/api/s/cases/',
      '/api/s/consents/',
    ]);
  });

  it('after submission, a top-up to pay is the next step, to the payment portal', async () => {
    mockFetch((c) =>
      pathOf(c) === '/api/s/cases/'
        ? {
            status: 200,
            body: page([
              subjectCase({
                submitted: true,
                needs: ['Pay the top-up'],
                next_step: { label: 'Pay the top-up', section: 'done', payment_intent: 'pit_7' },
                progress: { completed: 8, total: 8, percent: 100, next: 'done' },
              }),
            ]),
          }
        : { status: 200, body: page([]) },
    );
    show('/s/dashboard', '/s/dashboard', DashboardPage);
    const card = within(await screen.findByTestId('subject-case'));
    expect(card.getByTestId('case-needs').textContent).toContain('Pay the top-up');
    expect(card.getByRole('link', { name: 'Pay the top-up' }).getAttribute('href')).toBe(
      '/payment-portal/pit_7',
    );
    expect(card.queryByText(/You have sent everything/)).toBeNull();
  });

  it('prompts to renew a driving licence consent that is due', async () => {
    mockFetch((c) =>
      pathOf(c) === '/api/s/consents/'
        ? { status: 200, body: page([consent({ status: 'expiring' })]) }
        : { status: 200, body: page([]) },
    );
    show('/s/dashboard', '/s/dashboard', DashboardPage);
    const prompt = await screen.findByTestId('dvla-prompt');
    expect(prompt.textContent).toContain('Your consent ends on 1st Dec 2026.');
    expect(within(prompt).getByRole('link', { name: 'Renew consent' }).getAttribute('href')).toBe(
      '/s/dvla-reconsent',
    );
    expect(await screen.findByText('No checks yet')).toBeTruthy();
  });

  it('says the cases could not be loaded when the call fails, and retries', async () => {
    let fail = true;
    mockFetch((c) =>
      pathOf(c) === '/api/s/cases/' && fail
        ? { status: 500, body: { detail: 'boom' } }
        : { status: 200, body: page(pathOf(c) === '/api/s/cases/' ? [subjectCase()] : []) },
    );
    show('/s/dashboard', '/s/dashboard', DashboardPage);
    await screen.findByText('The cases could not be loaded');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Acme Care' });
  });
});

describe('subject cases', () => {
  it('lists the cases, each linking to its detail', async () => {
    const calls = mockFetch(() => ({ status: 200, body: page([subjectCase()]) }));
    show('/s/cases', '/s/cases', CasesPage);
    const row = await screen.findByTestId('subject-case-row');
    expect(row.getAttribute('href')).toBe('/s/cases/11');
    expect(row.textContent).toContain('Waiting for you');
    const url = new URL(calls[0]?.url ?? '', 'http://x');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('page_size')).toBe('20');
  });

  it('shows a case’s checks with their states in plain words', async () => {
    const calls = mockFetch(() => ({ status: 200, body: subjectCase() }));
    show('/s/cases/11', '/s/cases/:id', CaseDetailPage);
    await screen.findByRole('heading', { name: 'Checks for Acme Care' });
    expect(pathOf(calls[0] as Call)).toBe('/api/s/cases/11/');
    const rows = screen.getAllByTestId('subject-activity');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Basic detailsDone',
      'Address historyWaiting for you',
    ]);
    expect(screen.getByTestId('next-step').getAttribute('href')).toBe(
      '/s/case-portal/11/address-history',
    );
  });

  describe('what happens now, once the person has sent everything', () => {
    const done = (state: string, over: Partial<Parameters<typeof subjectCase>[0]> = {}) =>
      subjectCase({
        state,
        state_display: state,
        submitted: true,
        needs: [],
        next_step: null,
        progress: { completed: 8, total: 8, percent: 100, next: 'done' },
        case_activities: [
          {
            id: 101,
            activity_type: { code: 'basic-details', code_display: 'Basic details' },
            state: 'ca-complete',
            state_display: 'Complete',
          },
          {
            id: 103,
            activity_type: { code: 'knowledge-test', code_display: 'Knowledge test' },
            state: state === 'cancelled' ? 'ca-cancelled' : 'ca-complete',
            state_display: '',
          },
        ],
        ...over,
      });
    const open = async (body: ReturnType<typeof subjectCase>) => {
      mockFetch((c) =>
        pathOf(c) === '/api/s/cases/11/' ? { status: 200, body } : { status: 200, body: page([]) },
      );
      show('/s/cases/11', '/s/cases/:id', CaseDetailPage);
      await screen.findByRole('heading', { name: 'Checks for Acme Care' });
      return screen.getByTestId('case-outlook').textContent;
    };

    it('a complete case: the checks are complete and the customer has the result', async () => {
      expect(await open(done('complete'))).toBe(
        'These checks are complete. Acme Care has your results.',
      );
      expect(screen.queryByText(/You have sent everything/)).toBeNull();
    });

    it('a complete case of one check says so in the singular', async () => {
      const c = done('complete');
      expect(await open({ ...c, case_activities: c.case_activities.slice(0, 1) })).toBe(
        'This check is complete. Acme Care has your result.',
      );
    });

    it('a cancelled case, even one never submitted: nothing more to do', async () => {
      expect(await open(done('cancelled', { submitted: false }))).toBe(
        'These checks were cancelled. You do not need to do anything else.',
      );
      expect(screen.queryByText(/You have sent everything/)).toBeNull();
    });

    it('an open case waiting for the customer: sent everything, we will email', async () => {
      expect(await open(done('pending-case-decision'))).toBe(
        'You have sent everything. We will email you if Acme Care needs anything else.',
      );
    });

    it('an in-progress case with a check still waiting for the person: not "sent everything"', async () => {
      const c = done('in-progress');
      const waiting = c.case_activities.map((a) =>
        a.id === 103 ? { ...a, state: 'ca-awaiting-subject' } : a,
      );
      expect(await open({ ...c, case_activities: waiting })).toBe(
        'You still need to finish: Knowledge test.',
      );
      expect(screen.queryByText(/You have sent everything|complete\./)).toBeNull();
    });
  });

  it('says so when the case is not the person’s (404)', async () => {
    mockFetch(() => ({ status: 404, body: { detail: 'Not found.' } }));
    show('/s/cases/99', '/s/cases/:id', CaseDetailPage);
    await screen.findByRole('heading', { name: 'Case not found' });
  });
});

describe('subject consents', () => {
  it('lists case, check, given and expiry; withdraws only after confirming', async () => {
    let withdrawn = false;
    const calls = mockFetch((c) => {
      if (c.method === 'POST') {
        withdrawn = true;
        return { status: 200, body: consent({ status: 'withdrawn' }) };
      }
      return {
        status: 200,
        body: page([
          withdrawn
            ? consent({ status: 'withdrawn', withdrawn_at: '2026-11-24T10:00:00.000Z' })
            : consent(),
          consent({
            id: 32,
            kind: 'dbs-application',
            kind_display: 'Criminal record check declaration and consent',
            activity_type_name: 'Enhanced DBS check',
            expires_at: null,
            status: 'withdrawn',
            withdrawn_at: '2026-11-01T10:00:00.000Z',
          }),
        ]),
      };
    });
    show('/s/consents', '/s/consents', ConsentsPage);
    const rows = await screen.findAllByTestId('subject-consent');
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText('Acme Care (case 11)')).toBeTruthy();
    expect(first.getByText('Driving licence check')).toBeTruthy();
    expect(first.getByText('1st Dec 2023')).toBeTruthy();
    expect(first.getByText('1st Dec 2026')).toBeTruthy();
    // a withdrawn consent cannot be withdrawn again
    expect(within(rows[1] as HTMLElement).queryByRole('button')).toBeNull();
    fireEvent.click(first.getByRole('button', { name: /Withdraw consent: Driving licence/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw this consent?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep consent' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.click(first.getByRole('button', { name: /Withdraw consent/ }));
    const again = await screen.findByRole('dialog', { name: 'Withdraw this consent?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Withdraw consent' }));
    await screen.findByText('Consent withdrawn');
    expect(calls.filter((c) => c.method === 'POST').map(pathOf)).toEqual([
      '/api/s/consents/31/withdraw/',
    ]);
    await waitFor(() =>
      expect(screen.queryAllByRole('button', { name: /Withdraw consent:/ })).toHaveLength(0),
    );
  });
});

describe('DVLA reconsent', () => {
  it('asks for the agreement (summary linked to the box), renews, then confirms', async () => {
    const calls = mockFetch((c) =>
      c.method === 'POST'
        ? { status: 201, body: consent({ id: 40 }) }
        : { status: 200, body: page([consent({ status: 'expired' })]) },
    );
    show('/s/dvla-reconsent', '/s/dvla-reconsent', DvlaReconsentPage);
    const button = await screen.findByRole('button', { name: 'Renew my consent' });
    expect(screen.getByText('Your consent ended on 1st Dec 2026.')).toBeTruthy();
    // the declaration the portal's driver-data section gives, for the customer holding it
    expect(screen.getByRole('checkbox', { name: DVLA_MANDATE_LABEL })).toBeTruthy();
    fireEvent.click(button);
    const summary = await screen.findByTestId('error-summary');
    const link = within(summary).getByRole('link', { name: 'Please confirm' });
    expect(link.getAttribute('href')).toBe('#agree-31');
    fireEvent.click(link);
    expect(document.activeElement?.id).toBe('agree-31');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(button);
    const done = await screen.findByTestId('dvla-renewed');
    expect(done.textContent).toContain('Consent renewed');
    expect(within(done).getByRole('link', { name: 'Back to your checks' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Renew my consent' })).toBeNull();
    const post = calls.find((c) => c.method === 'POST');
    expect(post && pathOf(post)).toBe('/api/s/dvla-reconsent/');
    expect(post?.body).toEqual({ consent: 31 });
  });

  it('says there is nothing to renew while the consent is valid', async () => {
    mockFetch(() => ({ status: 200, body: page([consent()]) }));
    show('/s/dvla-reconsent', '/s/dvla-reconsent', DvlaReconsentPage);
    const ok = await screen.findByTestId('dvla-up-to-date');
    expect(ok.textContent).toContain('valid until 1st Dec 2026');
    expect(screen.queryByRole('button', { name: 'Renew my consent' })).toBeNull();
  });
});
