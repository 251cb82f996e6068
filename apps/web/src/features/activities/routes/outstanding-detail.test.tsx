import { SEND_BACK_MESSAGES } from '@kestrel/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import type { Call } from '../../../test/fetch-mock';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import OutstandingDetail from './outstanding-detail';

// The customer's outstanding activity: the moves its kind allows, and its result panel (a DBS
// application awaiting verification shows the verify step here too).

const activityOf = (
  activity_type: string,
  state: string,
  processing_data: Record<string, unknown> | null = null,
) => ({
  id: 41,
  case: {
    id: 9,
    state: 'in-progress',
    subject: { id: 3, first_name: 'Sam', last_name: 'Green', email: 'sam@example.test' },
    case_activities: [{ id: 41, state, activity_type, activity_type_name: activity_type }],
  },
  state,
  state_display: state,
  activity_type,
  activity_type_name: activity_type === 'rtw' ? 'Right to work' : 'DBS enhanced',
  key: activity_type,
  config: {},
  result_data: {},
  processing_data,
  notes: '',
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-21T09:00:00.000Z',
  completed_at: null,
});

const details = {
  case: 9,
  state: 'pending',
  idv_option: 'in-person',
  identity_check: {
    level: 'standard-enhanced',
    basis: 'documents',
    met: true,
    route: 1,
    problem: '',
    online_idv_passed: false,
    documents: [{ id: 1, name: 'Passport', group: '1' }],
  },
};

/** Where a sent-back activity returns to. */
const OutstandingList = () => <h1>Outstanding list</h1>;

/** The detail page of `activity`; `patch` answers a PATCH of it (none by default). */
function open(
  activity: ReturnType<typeof activityOf>,
  patch?: (call: Call) => { status: number; body: unknown },
) {
  const calls = mockFetch((call) => {
    if (call.method === 'PATCH' && patch) return patch(call);
    if (call.url.startsWith('/api/outstanding-activities/41/')) {
      return { status: 200, body: activity };
    }
    if (call.url.startsWith('/api/case-dbs-details/9/')) return { status: 200, body: details };
    return { status: 404, body: {} };
  });
  const router = createMemoryRouter(
    [
      { path: '/outstanding/:id', Component: OutstandingDetail },
      { path: '/outstanding-activities', Component: OutstandingList },
    ],
    { initialEntries: ['/outstanding/41'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return { calls, router };
}

const staff = () =>
  setSession(
    productIn(product({ session_permissions: ['cases.view_case', 'cases.change_caseactivity'] })),
  );

afterEach(() => resetSession());

describe('outstanding activity (customer)', () => {
  it('a DBS application the engine runs: only Cancel check by hand, and its verify step', async () => {
    setSession(
      productIn(product({ session_permissions: ['cases.view_case', 'cases.change_caseactivity'] })),
    );
    open(activityOf('dbs-enhanced', 'ca-awaiting-agent'));
    expect(await screen.findByRole('button', { name: 'Verify identity' })).toBeInTheDocument();
    expect(screen.getByText('This application is awaiting verification.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel check' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark in progress' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark complete' })).toBeNull();
    expect(screen.queryByText('The result of this check will show here.')).toBeNull();
  });

  it('another kind keeps the moves the domain allows', async () => {
    setSession(
      productIn(product({ session_permissions: ['cases.view_case', 'cases.change_caseactivity'] })),
    );
    open(activityOf('document-collection', 'ca-awaiting-agent'));
    expect(await screen.findByRole('button', { name: 'Mark in progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel check' })).toBeInTheDocument();
  });

  it('sends a check waiting for staff back to the person, after a confirm step', async () => {
    staff();
    const { calls, router } = open(activityOf('dbs-enhanced', 'ca-awaiting-agent'), () => ({
      status: 200,
      body: activityOf('dbs-enhanced', 'ca-awaiting-subject'),
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send back to the person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send back to the person' });
    expect(dialog).toHaveTextContent('their portal reopens at Review & Submit');
    expect(dialog).toHaveTextContent('Its identity verification is undone');
    // nothing is sent before the confirmation
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Send back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/outstanding-activities'));
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      expect.objectContaining({
        url: '/api/case-activities/41/',
        body: { state: 'ca-awaiting-subject' },
      }),
    ]);
  });

  it("shows the server's refusal in the dialog and stays", async () => {
    staff();
    const { router } = open(activityOf('document-collection', 'ca-awaiting-ops'), () => ({
      status: 400,
      body: { state: [SEND_BACK_MESSAGES.withProvider] },
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send back to the person' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send back' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SEND_BACK_MESSAGES.withProvider);
    expect(screen.getByRole('button', { name: 'Send back' })).toBeDisabled();
    expect(router.state.location.pathname).toBe('/outstanding/41');
  });

  it('offers no send-back where the domain refuses it, nor without the right', async () => {
    staff();
    // the licence check has nothing the person fills in
    open(activityOf('licence-check', 'ca-awaiting-ops'));
    expect(await screen.findByRole('button', { name: 'Cancel check' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send back to the person' })).toBeNull();
  });

  it('offers no send-back once a provider has the check', async () => {
    staff();
    open(activityOf('dbs-enhanced', 'ca-awaiting-agent', { reference: 'EB-1', events: [] }));
    expect(await screen.findByRole('button', { name: 'Cancel check' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send back to the person' })).toBeNull();
  });

  it('offers no send-back to a user who may not change activities', async () => {
    setSession(productIn(product({ session_permissions: ['cases.view_case'] })));
    open(activityOf('dbs-enhanced', 'ca-awaiting-agent'));
    expect(
      await screen.findByText('This application is awaiting verification.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send back to the person' })).toBeNull();
  });
});
