import type { ResultAudience } from '@kestrel/domain';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CaseActivity } from '../../../api/cases';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import { hasResultPanel } from '../../results/registry';
import { ActivityCard } from './activity-card';

// The real registry, watched: which audience the card asks about.
vi.mock('../../results/registry', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../results/registry')>();
  return { ...actual, hasResultPanel: vi.fn(actual.hasResultPanel) };
});

const licenceCheck: CaseActivity = {
  id: 41,
  case: {
    id: 7,
    state: 'in-progress',
    subject: { id: 3, first_name: 'Sam', last_name: 'Morgan', email: 'sam@example.test' },
  },
  state: 'ca-awaiting-ops',
  state_display: 'Awaiting operations',
  activity_type: 'licence-check',
  activity_type_name: 'Driving licence check',
  key: 'licence-check',
  config: {},
  result_data: { status: 'EmailUnconfirmed' },
  processing_data: {},
  notes: '',
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-21T09:00:00Z',
  completed_at: null,
};

beforeEach(() => {
  mockFetch(() => ({ status: 404, body: {} }));
  vi.mocked(hasResultPanel).mockClear();
});
afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function renderCard(isOps: boolean) {
  setSession(productIn(product(isOps ? { is_ops: true, customer: null } : {})));
  renderWithProviders(
    <MemoryRouter>
      <ActivityCard activity={licenceCheck} caseActivityCodes={['licence-check']} />
    </MemoryRouter>,
  );
}

const audiencesAsked = () =>
  vi.mocked(hasResultPanel).mock.calls.map(([, audience]: [string, ResultAudience?]) => audience);

describe('an activity card asks the registry for its own audience', () => {
  it('operations: whether operations see a panel, and shows the ops view with its form', () => {
    renderCard(true);
    expect(audiencesAsked()).not.toEqual([]);
    expect(new Set(audiencesAsked())).toEqual(new Set(['ops']));
    expect(screen.getByTestId('activity-result')).toHaveAttribute('data-audience', 'ops');
    expect(screen.getByTestId('licence-check-panel')).toBeInTheDocument();
  });

  it('customer staff: whether the customer sees a panel, and shows the customer view', () => {
    renderCard(false);
    expect(new Set(audiencesAsked())).toEqual(new Set(['customer']));
    expect(screen.getByTestId('activity-result')).toHaveAttribute('data-audience', 'customer');
  });
});
