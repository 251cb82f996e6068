import { ONLINE_IDV_TEXTS } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { IdvApprovalForm } from './online-idv-form';
import { OnlineIdvPanel } from './online-idv-panel';
import type { Audience, PanelActivity } from './panel-kit';
import { opsFormFor, resultPanelFor } from './registry';
import { RtwCheckForm } from './rtw-form';
import { RtwPanel } from './rtw-panel';

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];

const activity = (
  code: 'online-idv' | 'rtw',
  result_data: Record<string, unknown>,
  state = 'ca-complete',
): PanelActivity => ({ id: 51, state, activity_type: code, result_data });

const verified = {
  outcome: 'passed',
  verified: true,
  method: 'digital',
  forename: 'Ada',
  middlename: 'Zoe',
  surname: 'Byron',
  dob: '1985-12-10',
  current_address: {
    line_one: '10 Verified Street',
    line_two: '',
    town: 'London',
    postcode: 'SW1A 1AA',
    country: 'GBR',
  },
  level_of_assurance: 'high',
  rtw_verified: true,
  dbs_identity: 'verified',
  name_mismatch: null,
  ibv_verified: false,
  ibv_session: null,
  manual_idv_approved: false,
  session: 'sim_abc',
  failure_reason: null,
  completed_at: '2026-11-24T10:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('the online identity panel', () => {
  it.each(AUDIENCES)('shows a verified identity to %s', (audience) => {
    renderWithProviders(
      <OnlineIdvPanel activity={activity('online-idv', verified)} audience={audience} />,
    );
    const panel = screen.getByTestId('online-idv-panel');
    expect(within(panel).getByText('Verified', { selector: 'span' })).toBeInTheDocument();
    expect(within(panel).getByText('Ada Zoe Byron')).toBeInTheDocument();
    expect(within(panel).getByText('10th Dec 1985')).toBeInTheDocument();
    expect(within(panel).getByText(/10 Verified Street, London, SW1A 1AA/)).toBeInTheDocument();
    expect(within(panel).getByText('High')).toBeInTheDocument();
    // right to work verified digitally: no text about it
    expect(screen.queryByText(ONLINE_IDV_TEXTS.rtwNotDigital)).toBeNull();
    // the provider's session is for staff only
    expect(within(panel).queryByText('sim_abc') !== null).toBe(audience !== 'subject');
  });

  it.each(AUDIENCES)(
    'a partial result for %s: in a Post Office branch, right to work not digital, DBS manual, a name mismatch',
    (audience) => {
      renderWithProviders(
        <OnlineIdvPanel
          activity={activity(
            'online-idv',
            {
              ...verified,
              method: 'post-office',
              rtw_verified: false,
              dbs_identity: 'manual',
              name_mismatch: { reason: 'document_short_name', document_name: 'Ada Byr' },
              current_address: null,
            },
            'ca-pending-activity-decision',
          )}
          audience={audience}
        />,
      );
      expect(screen.getByText(ONLINE_IDV_TEXTS.postOffice)).toBeInTheDocument();
      expect(screen.getByText(ONLINE_IDV_TEXTS.rtwNotDigital)).toBeInTheDocument();
      expect(screen.getByText('Manual')).toBeInTheDocument();
      expect(screen.getByText('Shortened name on document(s)')).toBeInTheDocument();
      expect(screen.queryByText('Ada Byr') !== null).toBe(audience !== 'subject');
    },
  );

  it.each(AUDIENCES)(
    'a manual approval for %s says the identity was verified manually',
    (audience) => {
      renderWithProviders(
        <OnlineIdvPanel
          activity={activity('online-idv', {
            ...verified,
            outcome: 'failed',
            verified: false,
            manual_idv_approved: true,
            manual_approval: {
              by: 'Olive Ops',
              at: '2026-11-25T09:00:00Z',
              reason: 'Passport seen',
            },
            failure_reason: 'Your identity document could not be verified.',
          })}
          audience={audience}
        />,
      );
      expect(screen.getByText(ONLINE_IDV_TEXTS.manual)).toBeInTheDocument();
      expect(screen.queryByText('Passport seen') !== null).toBe(audience !== 'subject');
      expect(screen.queryByText(/Your identity document could not be verified/) !== null).toBe(
        false,
      );
    },
  );

  it.each(AUDIENCES)('with no result yet, %s reads that the check is not completed', (audience) => {
    renderWithProviders(
      <OnlineIdvPanel
        activity={activity('online-idv', {}, 'ca-in-progress')}
        audience={audience}
      />,
    );
    expect(screen.getByTestId('online-idv-not-finished')).toHaveTextContent(
      'The online identity check has not been completed yet.',
    );
  });

  it('is the registry’s panel for every audience, with the approval form for operations', () => {
    for (const a of AUDIENCES) expect(resultPanelFor('online-idv', a)).toBe(OnlineIdvPanel);
    expect(opsFormFor('online-idv')).toBe(IdvApprovalForm);
  });

  it('the approval form requires a reason, then posts it', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { id: 51, state: 'ca-complete', result_data: {} },
    }));
    renderWithProviders(
      <IdvApprovalForm activity={activity('online-idv', {}, 'ca-pending-activity-decision')} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Approve identity' }));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    expect(calls).toHaveLength(0);
    fireEvent.change(screen.getByRole('textbox', { name: /Reason/ }), {
      target: { value: 'Passport seen in person' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Approve identity' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/ops/case-activities/51/idv-approve/',
      body: { reason: 'Passport seen in person' },
    });
  });

  it('the approval form is gone once the activity is finished', () => {
    renderWithProviders(<IdvApprovalForm activity={activity('online-idv', verified)} />);
    expect(screen.queryByTestId('idv-approval-form')).toBeNull();
  });
});

const timeLimited = {
  method: 'share-code',
  outcome: 'time-limited',
  forename: 'Priya',
  surname: 'Shah',
  nationality: 'Indian',
  status_text: 'This person can work in the UK until the date shown (Skilled Worker visa).',
  conditions: ['They can only work for the sponsor named on their visa.'],
  expiry_date: '2027-11-24',
  follow_up_date: '2027-10-27',
  photo: 'data:image/svg+xml;base64,PHN2Zy8+',
  share_code: 'WTL345678',
  checked_by: 'Home Office online check',
  checked_at: '2026-11-24T09:00:00.000Z',
};

describe('the right to work panel', () => {
  it.each(AUDIENCES)('shows a time-limited right with its follow-up date to %s', (audience) => {
    renderWithProviders(<RtwPanel activity={activity('rtw', timeLimited)} audience={audience} />);
    const panel = screen.getByTestId('rtw-panel');
    for (const text of [
      'Priya',
      'Shah',
      'Indian',
      'Online check (Home Office share code)',
      'Home Office online check',
      '24th Nov 2026',
      'Time-limited right to work',
      '24th Nov 2027',
    ]) {
      expect(within(panel).getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByTestId('rtw-follow-up')).toHaveTextContent(
      'A follow-up right to work check is due by 27th Oct 2027.',
    );
    expect(
      screen.getByText('They can only work for the sponsor named on their visa.'),
    ).toBeInTheDocument();
    // the photo and the share code are for staff
    expect(screen.queryByAltText('Photo held by the Home Office') !== null).toBe(
      audience !== 'subject',
    );
    expect(screen.queryByText('WTL345678') !== null).toBe(audience !== 'subject');
  });

  it.each(AUDIENCES)('a manual check for %s lists the documents seen', (audience) => {
    renderWithProviders(
      <RtwPanel
        activity={activity('rtw', {
          method: 'documents',
          outcome: 'permanent',
          forename: 'Sam',
          surname: 'Jones',
          nationality: 'GBR',
          documents: ['British passport (current or expired)'],
          checked_by: 'Olive Ops',
          checked_at: '2026-11-25T09:00:00.000Z',
          notes: 'Seen in person',
        })}
        audience={audience}
      />,
    );
    // the nationality as a nationality ('British'), not the country ('United Kingdom') nor 'GBR'
    const panel = screen.getByTestId('rtw-panel');
    expect(
      within(panel).getByText('Nationality', { selector: 'p' }).nextElementSibling,
    ).toHaveTextContent(/^British$/);
    expect(within(panel).queryByText(/United Kingdom|GBR/)).toBeNull();
    expect(screen.getByText('Manual document check')).toBeInTheDocument();
    expect(screen.getByText('Right to work confirmed')).toBeInTheDocument();
    expect(screen.getByText('British passport (current or expired)')).toBeInTheDocument();
    expect(screen.getByText('Olive Ops')).toBeInTheDocument();
    expect(screen.queryByTestId('rtw-follow-up')).toBeNull();
    expect(screen.queryByText('Seen in person') !== null).toBe(audience !== 'subject');
  });

  it.each(AUDIENCES)('with no result, %s reads what it waits for', (audience) => {
    const { unmount } = renderWithProviders(
      <RtwPanel activity={activity('rtw', {}, 'ca-awaiting-agent')} audience={audience} />,
    );
    expect(screen.getByTestId('rtw-not-checked')).toHaveTextContent(
      'Waiting for a manual right to work check of the documents.',
    );
    unmount();
    renderWithProviders(
      <RtwPanel activity={activity('rtw', {}, 'ca-in-progress')} audience={audience} />,
    );
    expect(screen.getByTestId('rtw-not-checked')).toHaveTextContent(
      'The right to work has not been checked yet.',
    );
  });

  it('is the registry’s panel for every audience, with the manual check for operations', () => {
    for (const a of AUDIENCES) expect(resultPanelFor('rtw', a)).toBe(RtwPanel);
    expect(opsFormFor('rtw')).toBe(RtwCheckForm);
  });

  it('the manual check form asks for a result and documents, then posts it', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { id: 51, state: 'ca-complete', result_data: {} },
    }));
    renderWithProviders(<RtwCheckForm activity={activity('rtw', {}, 'ca-awaiting-agent')} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save check' }));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('radio', { name: 'No right to work' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Notes' }), {
      target: { value: 'Visa expired' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save check' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/ops/case-activities/51/rtw-check/',
      body: { outcome: 'no-right', documents: [], notes: 'Visa expired' },
    });
  });
});
