import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import OutstandingDetail from './outstanding-detail';

// The customer's outstanding activity: the moves its kind allows, and its result panel (a DBS
// application awaiting verification shows the verify step here too).

const activityOf = (activity_type: string, state: string) => ({
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
  processing_data: null,
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

function open(activity: ReturnType<typeof activityOf>) {
  mockFetch((call) => {
    if (call.url.startsWith('/api/outstanding-activities/41/')) {
      return { status: 200, body: activity };
    }
    if (call.url.startsWith('/api/case-dbs-details/9/')) return { status: 200, body: details };
    return { status: 404, body: {} };
  });
  const router = createMemoryRouter([{ path: '/outstanding/:id', Component: OutstandingDetail }], {
    initialEntries: ['/outstanding/41'],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

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
});
