import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { DRIVER_DATA_PENDING, DriverDataPanel } from './driver-data-panel';
import { DavisEmailForm } from './licence-check-form';
import { LicenceCheckPanel } from './licence-check-panel';
import type { Audience, PanelActivity } from './panel-kit';
import { opsFormFor, resultPanelFor } from './registry';

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];

const endorsements = [
  {
    offence_code: 'SP30',
    offence_date: '2025-10-23',
    conviction_date: '2025-12-12',
    penalty_points: 3,
    removal_date: '2029-10-23',
  },
  {
    offence_code: 'ZZ99',
    offence_date: '2026-05-11',
    conviction_date: null,
    penalty_points: 2,
    removal_date: '2030-05-11',
  },
];
const entitlements = [
  {
    category: 'B',
    type: 'Full',
    valid_from: '2010-05-04',
    valid_to: '2034-11-10',
    restrictions: [{ code: '01', text: 'Eyesight correction' }],
  },
];

const driverRecord = {
  enquiry_code: null,
  mandate_date: '2026-11-20',
  checked_date: '2026-11-27',
  include_cpc: true,
  include_tacho: true,
  driver: {
    first_names: 'ADA',
    last_name: 'MORGAN',
    gender: 'Female',
    date_of_birth: '1976-03-11',
    address: '1 Test Street, Swansea, SA6 7JL',
  },
  licence: { type: 'Full', status: 'Valid', status_qualifier: null },
  token: { valid_from: '2024-03-03', valid_to: '2034-03-02', issue_number: '17' },
  endorsements,
  entitlements,
  tests: [{ category: 'B', test_date: '2010-05-04', status: 'Passed' }],
  cpcs: [{ lgv_valid_to: '2028-10-28', pcv_valid_to: '2028-10-28' }],
  dqcs: [{ card_number: 'DQC116SM9I', issue_date: '2023-10-24', valid_to: '2028-10-28' }],
  tacho_cards: [
    {
      card_number: 'DBMORGA753116',
      status: 'Issued',
      valid_from: '2025-07-15',
      valid_to: '2030-06-20',
    },
  ],
};

const checked = {
  status: 'Checked',
  risk: 'medium',
  last_check_date: '2026-11-27',
  next_check_date: '2027-05-27',
  mandate_date: '2026-11-20',
  licence: {
    number: 'MORGA753116SM9IJ',
    type: 'Full',
    status: 'Valid',
    issue_number: '17',
    valid_from: '2024-03-03',
    valid_to: '2034-03-02',
    points: 5,
  },
  address: '1 Test Street, Swansea, SA6 7JL',
  endorsements,
  entitlements,
  confirmed_email: 'ada@example.com',
  confirmed_at: '2026-11-26',
  changes: ['New endorsement ZZ99 2026-05-11'],
};

const activity = (
  activity_type: string,
  result_data: Record<string, unknown>,
  state = 'ca-complete',
): PanelActivity => ({ id: 52, state, activity_type, result_data });

afterEach(() => vi.unstubAllGlobals());

describe('the driver data panel', () => {
  it.each(AUDIENCES)(
    'shows a complete record with CPCs, DQCs and tacho cards to %s',
    (audience) => {
      renderWithProviders(
        <DriverDataPanel activity={activity('driver-data', driverRecord)} audience={audience} />,
      );
      const driver = screen.getByTestId('driver-data-driver');
      expect(within(driver).getByText('MORGAN')).toBeInTheDocument();
      expect(within(driver).getByText('11th Mar 1976')).toBeInTheDocument();
      expect(within(screen.getByTestId('driver-data-token')).getByText('17')).toBeInTheDocument();
      const e = screen.getByTestId('driver-data-endorsements');
      expect(within(e).getByText('Unrecognised code')).toBeInTheDocument();
      // the unknown code's table columns are dashes; its removal date is still computed
      const zz99 = within(e).getByText('ZZ99').closest('tr');
      if (!zz99) throw new Error('no row');
      // no conviction date, and the period the table does not know
      expect(within(zz99).getAllByText('—')).toHaveLength(2);
      expect(within(zz99).getByText('11th May 2030')).toBeInTheDocument();
      expect(within(e).getByText('23rd Oct 2029')).toBeInTheDocument();
      expect(within(e).getByText('4 years')).toBeInTheDocument();
      expect(
        within(screen.getByTestId('driver-data-entitlements')).getByText('01 Eyesight correction'),
      ).toBeInTheDocument();
      expect(
        within(screen.getByTestId('driver-data-tests')).getByText('Passed'),
      ).toBeInTheDocument();
      expect(
        within(screen.getByTestId('driver-data-cpcs')).getAllByText('28th Oct 2028'),
      ).toHaveLength(2);
      expect(
        within(screen.getByTestId('driver-data-dqcs')).getByText('DQC116SM9I'),
      ).toBeInTheDocument();
      expect(
        within(screen.getByTestId('driver-data-tacho')).getByText('Issued'),
      ).toBeInTheDocument();
    },
  );

  it('leaves CPCs, DQCs and tacho cards out when not included; says none for empty parts', () => {
    renderWithProviders(
      <DriverDataPanel
        activity={activity('driver-data', {
          ...driverRecord,
          include_cpc: false,
          include_tacho: false,
          endorsements: [],
          tests: [],
          token: null,
        })}
        audience="customer"
      />,
    );
    expect(screen.queryByTestId('driver-data-cpcs')).toBeNull();
    expect(screen.queryByTestId('driver-data-dqcs')).toBeNull();
    expect(screen.queryByTestId('driver-data-tacho')).toBeNull();
    expect(screen.getByText('No endorsements')).toBeInTheDocument();
    expect(screen.getByText('No test passes')).toBeInTheDocument();
  });

  it.each(AUDIENCES)('words no driver record (ENQ018) for %s', (audience) => {
    renderWithProviders(
      <DriverDataPanel
        activity={activity(
          'driver-data',
          { enquiry_code: 'ENQ018', mandate_date: '2026-11-20' },
          'ca-pending-activity-decision',
        )}
        audience={audience}
      />,
    );
    expect(screen.getByTestId('driver-data-message')).toHaveTextContent(
      'No driver record was found for the details given.',
    );
    expect(screen.getByText('ENQ018')).toBeInTheDocument();
  });

  it.each(AUDIENCES)(
    'words a suppressed record (ENQ037) with the mandate date for %s',
    (audience) => {
      renderWithProviders(
        <DriverDataPanel
          activity={activity(
            'driver-data',
            { enquiry_code: 'ENQ037', mandate_date: '2026-11-20', suppressed_since: '2026-11-27' },
            'ca-in-progress',
          )}
          audience={audience}
        />,
      );
      expect(screen.getByTestId('driver-data-message')).toHaveTextContent(
        'This driver record is suppressed by the DVLA. It can take up to 28 days before the record is released. The mandate was signed on 20th Nov 2026.',
      );
    },
  );

  it('says so while there is no answer yet', () => {
    renderWithProviders(
      <DriverDataPanel
        activity={activity('driver-data', {}, 'ca-in-progress')}
        audience="customer"
      />,
    );
    expect(screen.getByTestId('driver-data-pending')).toHaveTextContent(DRIVER_DATA_PENDING);
  });
});

describe('the licence check panel', () => {
  it.each(['customer', 'ops'] as const)('shows %s everything of a completed check', (audience) => {
    renderWithProviders(
      <LicenceCheckPanel activity={activity('licence-check', checked)} audience={audience} />,
    );
    const panel = screen.getByTestId('licence-check-panel');
    expect(screen.queryByTestId('licence-check-message')).toBeNull();
    for (const text of [
      'Checked',
      'Medium',
      '27th Nov 2026',
      '27th May 2027',
      'MORGA753116SM9IJ',
    ]) {
      expect(within(panel).getAllByText(text).length).toBeGreaterThan(0);
    }
    expect(within(panel).getByText('ada@example.com (26th Nov 2026)')).toBeInTheDocument();
    expect(screen.getByTestId('licence-check-changes')).toHaveTextContent(
      'New endorsement ZZ99 2026-05-11',
    );
    expect(
      within(screen.getByTestId('licence-check-address')).getByText(
        '1 Test Street, Swansea, SA6 7JL',
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('licence-check-endorsements')).getByText('Unrecognised code'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('licence-check-entitlements')).getByText('Full'),
    ).toBeInTheDocument();
  });

  it("leaves the risk, the re-check's changes and the confirmed email out of the subject's view", () => {
    renderWithProviders(
      <LicenceCheckPanel activity={activity('licence-check', checked)} audience="subject" />,
    );
    expect(screen.queryByText('Risk')).toBeNull();
    expect(screen.queryByText('Medium')).toBeNull();
    expect(screen.queryByTestId('licence-check-changes')).toBeNull();
    expect(screen.queryByText(/ada@example.com/)).toBeNull();
    expect(screen.getByText('MORGA753116SM9IJ')).toBeInTheDocument();
    expect(screen.getByTestId('licence-check-endorsements')).toBeInTheDocument();
  });

  it.each(AUDIENCES)('says the check is awaited (AwaitingCheck) to %s', (audience) => {
    renderWithProviders(
      <LicenceCheckPanel
        activity={activity(
          'licence-check',
          { status: 'AwaitingCheck', licence: { number: 'MORGA753116SM9IJ' } },
          'ca-in-progress',
        )}
        audience={audience}
      />,
    );
    expect(screen.getByTestId('licence-check-message')).toHaveTextContent(
      'This licence is awaiting a check with the DVLA. The result will appear here once the check is complete.',
    );
    expect(screen.queryByTestId('licence-check-endorsements')).toBeNull();
  });

  it.each(AUDIENCES)(
    "says DQ3's manual DVLA response takes 14-28 working days to %s",
    (audience) => {
      renderWithProviders(
        <LicenceCheckPanel
          activity={activity('licence-check', { status: 'DQ3' }, 'ca-in-progress')}
          audience={audience}
        />,
      );
      expect(screen.getByTestId('licence-check-message')).toHaveTextContent(
        'The DVLA is responding to this check manually. A manual response takes 14-28 working days.',
      );
    },
  );

  it.each(AUDIENCES)("waits for the subject's licence details (%s)", (audience) => {
    renderWithProviders(
      <LicenceCheckPanel
        activity={activity('licence-check', {}, 'ca-awaiting-subject')}
        audience={audience}
      />,
    );
    expect(screen.getByTestId('licence-check-message')).toHaveTextContent(
      'Waiting for the subject to provide their driving licence details.',
    );
  });

  it('a submitted check not answered yet is awaiting the check; the email wait and not found are worded', () => {
    const { unmount } = renderWithProviders(
      <LicenceCheckPanel
        activity={activity('licence-check', {}, 'ca-in-progress')}
        audience="ops"
      />,
    );
    expect(screen.getByTestId('licence-check-message')).toHaveTextContent(/awaiting a check/);
    unmount();
    const second = renderWithProviders(
      <LicenceCheckPanel
        activity={activity('licence-check', { status: 'EmailUnconfirmed' }, 'ca-awaiting-ops')}
        audience="ops"
      />,
    );
    expect(screen.getByTestId('licence-check-message')).toHaveTextContent(/email to be confirmed/);
    second.unmount();
    renderWithProviders(
      <LicenceCheckPanel
        activity={activity('licence-check', { status: 'NotFound' }, 'ca-pending-activity-decision')}
        audience="customer"
      />,
    );
    expect(screen.getByTestId('licence-check-message')).toHaveTextContent(
      'No driving licence was found with the number given.',
    );
  });

  it('is registered for every audience, with the Davis form for operations', () => {
    for (const audience of AUDIENCES) {
      expect(resultPanelFor('licence-check', audience)).toBe(LicenceCheckPanel);
      expect(resultPanelFor('driver-data', audience)).toBe(DriverDataPanel);
    }
    expect(opsFormFor('licence-check')).toBe(DavisEmailForm);
    expect(opsFormFor('driver-data')).toBeNull();
  });
});

describe("operations' Davis email confirmation", () => {
  it("says 'Required' and 'Invalid email', then sends the email", async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { id: 52, state: 'ca-in-progress', result_data: {} },
    }));
    renderWithProviders(
      <DavisEmailForm
        activity={activity('licence-check', { status: 'EmailUnconfirmed' }, 'ca-awaiting-ops')}
      />,
    );
    const button = screen.getByRole('button', { name: 'Confirm email' });
    fireEvent.click(button);
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'ada' } });
    fireEvent.click(button);
    expect(await screen.findAllByText('Invalid email')).not.toHaveLength(0);
    expect(calls).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: ' ada@example.com ' } });
    fireEvent.click(button);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/ops/case-activities/52/davis-email/',
      body: { email: 'ada@example.com' },
    });
  });

  it('is not shown once the check is closed', () => {
    renderWithProviders(<DavisEmailForm activity={activity('licence-check', checked)} />);
    expect(screen.queryByTestId('davis-email-form')).toBeNull();
  });
});
