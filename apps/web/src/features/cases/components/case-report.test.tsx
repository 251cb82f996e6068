import type { CaseActivityOut, CaseDetailOut as CaseDetail } from '@kestrel/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BRANDS } from '../../../app/brands';
import { renderWithProviders } from '../../../test/render';
import { CaseReport } from './case-report';

const sam = { id: 3, first_name: 'Sam', last_name: 'Green', email: 'sam@example.test' };

const activity = (
  id: number,
  state: string,
  state_display: string,
  name: string,
  over: Partial<CaseActivityOut> = {},
): CaseActivityOut => ({
  id,
  case: { id: 14, state: 'complete', subject: sam },
  state,
  state_display,
  activity_type: 'dbs-basic',
  activity_type_name: name,
  key: 'dbs-basic',
  config: {},
  result_data: {},
  processing_data: {},
  created_at: '2026-11-06T09:00:00.000Z',
  updated_at: '2026-11-08T09:00:00.000Z',
  completed_at: null,
  ...over,
});

const item: CaseDetail = {
  id: 14,
  customer: 1,
  state: 'complete',
  state_display: 'Complete',
  process: { id: 1, name: 'Care worker onboarding' },
  subject: {
    ...sam,
    middlename: 'Lee',
    dob: '1990-04-12',
    phone_number: '+447911123456',
    has_account: true,
    is_archived: false,
    archived_at: null,
    created_at: '2026-11-01T09:00:00.000Z',
    open_cases: 0,
  },
  created_at: '2026-11-06T09:00:00.000Z',
  updated_at: '2026-11-12T09:00:00.000Z',
  completed_at: '2026-11-12T09:00:00.000Z',
  decision: 'satisfactory',
  decision_notes: 'All clear.',
  cancelled_reason: '',
  is_archived: false,
  archived_at: null,
  flagged: false,
  summary: { activities: 3, open: 0, complete: 2, cancelled: 1 },
  case_activities: [
    activity(1, 'ca-complete', 'Complete', 'Basic DBS check', {
      completed_at: '2026-11-08T09:00:00.000Z',
      result_data: { result: 'Clear', certificate_number: '001234567890' },
    }),
    activity(2, 'ca-complete', 'Complete', 'Right to work', {
      completed_at: '2026-11-09T09:00:00.000Z',
    }),
    activity(3, 'ca-cancelled', 'Cancelled', 'Address history', { notes: 'Not needed' }),
  ],
  archivable: true,
  payment: null,
};

describe('the printed case report', () => {
  it('has the brand, the case, subject, process, dates, every check and the decision', () => {
    const harrier = BRANDS.find((b) => b.id === 'harrier');
    if (!harrier) throw new Error('no brand');
    renderWithProviders(
      <CaseReport
        item={item}
        organisation="Acme Care Ltd"
        printedBy="Alex Admin"
        brand={harrier}
        now={new Date('2026-11-24T10:00:00Z')}
      />,
    );
    const report = within(screen.getByTestId('case-report'));
    expect(report.getByText('Harrier Vetting')).toBeTruthy();
    expect(report.getByText('Printed 24th Nov 2026 by Alex Admin')).toBeTruthy();
    expect(report.getByRole('heading', { name: 'Case #14' })).toBeTruthy();
    expect(report.getByText('Sam Lee Green · Care worker onboarding · Acme Care Ltd')).toBeTruthy();
    expect(report.getByText('6th Nov 2026')).toBeTruthy(); // opened
    expect(report.getByText('07911 123456')).toBeTruthy();
    expect(report.getByText('12th Apr 1990')).toBeTruthy();
    const checks = screen.getAllByTestId('report-check').map((r) => r.textContent);
    expect(checks).toEqual([
      'Basic DBS checkComplete8th Nov 2026Result: Clear; Certificate number: 001234567890',
      'Right to workComplete9th Nov 2026Complete; no result details recorded',
      'Address historyCancelled–Cancelled: no resultNotes: Not needed',
    ]);
    expect(screen.getByTestId('report-decision').textContent).toBe(
      'Satisfactory on 12th Nov 2026Notes: All clear.',
    );
    expect(report.getByText(/help@harriervetting\.co\.uk/)).toBeTruthy();
  });

  it('says when no decision is recorded yet, and why a cancelled case has none', () => {
    const open = { ...item, state: 'in-progress', decision: null, decision_notes: '' };
    const { unmount } = renderWithProviders(<CaseReport item={open} />);
    expect(screen.getByTestId('report-decision').textContent).toBe('Not recorded yet');
    unmount();
    renderWithProviders(
      <CaseReport
        item={{ ...open, state: 'cancelled', cancelled_reason: 'Withdrew application' }}
      />,
    );
    expect(screen.getByTestId('report-decision').textContent).toBe(
      'None: the case was cancelledReason: Withdrew application',
    );
  });
});
