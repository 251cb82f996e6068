import type { CaseActivityOut, CaseDetailOut as CaseDetail } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import { CaseActions } from './case-actions';

const sam = { id: 3, first_name: 'Sam', last_name: 'Green', email: 'sam@example.test' };

const activity = (
  id: number,
  state: string,
  state_display: string,
  name: string,
): CaseActivityOut => ({
  id,
  case: { id: 7, state: 'pending-case-decision', subject: sam },
  state,
  state_display,
  activity_type: 'dbs-basic',
  activity_type_name: name,
  key: 'dbs-basic',
  config: {},
  result_data: {},
  processing_data: {},
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
  completed_at: null,
});

const caseWith = (activities: CaseActivityOut[]): CaseDetail => ({
  id: 7,
  customer: 1,
  state: 'pending-case-decision',
  state_display: 'Pending case decision',
  process: { id: 1, name: 'Standard' },
  subject: {
    ...sam,
    middlename: '',
    dob: null,
    phone_number: '',
    has_account: false,
    is_archived: false,
    archived_at: null,
    created_at: '2026-11-01T09:00:00.000Z',
    open_cases: 1,
  },
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
  completed_at: null,
  decision: null,
  decision_notes: '',
  cancelled_reason: '',
  is_archived: false,
  archived_at: null,
  flagged: false,
  summary: { activities: activities.length, open: 0, complete: 0, cancelled: 0 },
  case_activities: activities,
  archivable: false,
  payment: null,
});

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function renderActions(item: CaseDetail) {
  setSession(productIn(product({ session_permissions: ['cases.view_case', 'cases.change_case'] })));
  renderWithProviders(
    <MemoryRouter>
      <CaseActions item={item} />
    </MemoryRouter>,
  );
}

function openDecision(item: CaseDetail) {
  renderActions(item);
  fireEvent.click(screen.getByRole('button', { name: 'Record decision' }));
}

/** The dialog's own button (the page's opener has the same name; the dialog's portal may come first). */
const submitButton = () =>
  within(screen.getByRole('dialog')).getByRole('button', { name: 'Record decision' });

describe('record decision', () => {
  it('preselects nothing, lists the checks, warns, and needs a confirmation', async () => {
    const calls = mockFetch(() => ({ status: 200, body: {} }));
    openDecision(
      caseWith([
        activity(1, 'ca-complete', 'Complete', 'Basic DBS'),
        activity(2, 'ca-cancelled', 'Cancelled', 'Right to work'),
        activity(3, 'ca-in-progress', 'In progress', 'Identity'),
      ]),
    );
    const satisfactory = await screen.findByRole('radio', { name: 'Satisfactory' });
    expect((satisfactory as HTMLInputElement).checked).toBe(false);
    expect(
      (screen.getByRole('radio', { name: 'Unsatisfactory' }) as HTMLInputElement).checked,
    ).toBe(false);
    for (const name of ['Basic DBS', 'Right to work', 'Identity']) {
      expect(screen.getByText(name)).toBeTruthy();
    }
    expect(screen.getByRole('alert').textContent).toContain('1 check was cancelled.');
    expect(screen.getByRole('alert').textContent).toContain('1 check is not complete.');
    expect(submitButton().hasAttribute('disabled')).toBe(true);

    fireEvent.click(satisfactory);
    expect(submitButton().hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('checkbox'));
    expect(submitButton().hasAttribute('disabled')).toBe(false);
    fireEvent.click(submitButton());
    await waitFor(() => expect(calls.some((c) => c.url.includes('record_decision'))).toBe(true));
    const sent = calls.find((c) => c.url.includes('record_decision'));
    expect(sent?.body).toEqual({ decision: 'satisfactory', notes: '' });
    expect(await screen.findByText('Successfully updated case')).toBeTruthy();
  });

  it('shows a refusal as the action error with the server line apart', async () => {
    const calls = mockFetch((call) =>
      call.url.includes('cancel')
        ? { status: 400, body: { detail: 'A complete case cannot be cancelled.' } }
        : { status: 200, body: {} },
    );
    renderActions(caseWith([activity(1, 'ca-complete', 'Complete', 'Basic DBS')]));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel case' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel case' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/cases/7/cancel/'));
    const toast = await screen.findByText(/Error updating case/);
    expect(toast.textContent).toBe('Error updating case\nA complete case cannot be cancelled.');
  });

  it('offers to cancel a case held for its payment', async () => {
    mockFetch(() => ({ status: 200, body: {} }));
    renderActions({
      ...caseWith([activity(1, 'ca-pending', 'Pending', 'Basic DBS')]),
      state: 'awaiting-payment',
      state_display: 'Awaiting payment',
    });
    expect(screen.getByRole('button', { name: 'Cancel case' })).toBeTruthy();
  });

  it('shows no warning when every check is complete', async () => {
    mockFetch(() => ({ status: 200, body: {} }));
    openDecision(caseWith([activity(1, 'ca-complete', 'Complete', 'Basic DBS')]));
    await screen.findByRole('radio', { name: 'Satisfactory' });
    expect(screen.queryByText('Check before deciding')).toBeNull();
  });
});
