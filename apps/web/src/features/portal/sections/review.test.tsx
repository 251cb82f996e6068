import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { portalPayload, renderPortal } from '../portal-test-kit';

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

function server(submitAnswer: { status: number; body?: unknown } = { status: 200, body: {} }) {
  let submitted = false;
  const calls = mockFetch((call: Call) => {
    if (call.url === '/api/s/case-portal/7/submit/') {
      if (submitAnswer.status < 300) submitted = true;
      return submitAnswer;
    }
    if (call.url.startsWith('/api/s/case-portal/7/')) {
      return {
        status: 200,
        body: portalPayload({ last: submitted ? 'review' : 'address-history', submitted }),
      };
    }
    if (call.url.startsWith('/api/s/case-basic-details/7/')) {
      return {
        status: 200,
        body: {
          case: 7,
          gender: 'female',
          title: 'Ms',
          forename: 'Zoë',
          forename_dbs: 'Zoe',
          middlename: '',
          middlename_dbs: '',
          surname: 'Smith',
          surname_dbs: '',
          email: 'zoe@example.test',
          email_dbs: '',
          dob: '1990-05-04',
          phone_number: '020 7123 4567',
          nin: '',
          nationality: 'GBR',
          online_idv: false,
          locked_fields: [],
        },
      };
    }
    if (call.url.startsWith('/api/s/case-addresses/')) {
      return { status: 200, body: { count: 0, next: null, previous: null, results: [], gaps: [] } };
    }
    return { status: 404, body: {} };
  });
  return calls;
}

describe('Review & Submit', () => {
  it('shows what was entered with links back, submits and opens Done (read-only)', async () => {
    const calls = server();
    renderPortal(7, 'review');
    await screen.findByText(/Zoë \(for DBS: Zoe\)/, {}, { timeout: 5000 });
    const blocks = screen.getAllByTestId('review-block');
    expect(blocks).toHaveLength(2);
    const change = within(blocks[0] as HTMLElement).getByRole('link', { name: /Change/ });
    expect(change.getAttribute('href')).toBe('/s/case-portal/7/basic-details');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    const done = await screen.findByTestId('portal-done', {}, { timeout: 5000 });
    // Done promises the case page: a link to it, plain to see
    expect(within(done).getByRole('link', { name: 'Go to your case page' })).toHaveAttribute(
      'href',
      '/s/cases/7',
    );
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/s/case-portal/7/submit/')).toBe(
      true,
    );
    // Done is the end: no way back into the (now read-only) answers from here but the list.
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('lists what the server refuses in the error summary', async () => {
    server({ status: 400, body: { detail: 'Your address history is not complete.' } });
    renderPortal(7, 'review');
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }, { timeout: 5000 }));
    const summary = await screen.findByTestId('error-summary');
    expect(summary.textContent).toContain('Your address history is not complete.');
    expect(screen.queryByTestId('portal-done')).toBeNull();
  });
});

describe('Review & Submit of a case with every kind of section', () => {
  const codes = [
    'online-idv',
    'basic-details',
    'address-history',
    'document-collection',
    'dbs-enhanced',
    'dbs-standard',
    'dbs-basic',
    'dbs-update',
    'driver-data',
    'rtw',
  ];
  const doc = (id: number, collector: string, name: string, code: string, pages: number) => ({
    id,
    case: 7,
    case_activity: 40,
    collector,
    document_type: name,
    document_type_code: code,
    group: '1',
    route_index: null,
    source: 'subject',
    extension: 'jpg',
    content_url: `/api/s/case-documents/${id}/content/`,
    thumbnail_url: '',
    rejected: false,
    confirmations: [],
    confirmed: true,
    pages: Array.from({ length: pages }, (_, i) => ({
      page: i + 1,
      original_name: `p${i + 1}.jpg`,
      content_type: 'image/jpeg',
      extension: 'jpg',
      size: 1000,
      converted_from: null,
      content_url: '',
    })),
    uploaded_by: 'Zoë Smith',
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
  });
  const activities = codes.map((code, i) => ({
    id: 40 + i,
    activity_type: { code, code_display: code },
    state: 'ca-awaiting-subject',
    state_display: 'Waiting for you',
    config: {},
  }));
  const bodies: Record<string, unknown> = {
    '/api/s/case-basic-details/7/': {
      case: 7,
      gender: 'female',
      title: 'Ms',
      forename: 'Zoë',
      forename_dbs: 'Zoe',
      middlename: '',
      middlename_dbs: '',
      surname: 'Smith',
      surname_dbs: '',
      email: 'zoe@example.test',
      email_dbs: '',
      dob: '1990-05-04',
      phone_number: '+447911123456',
      nin: 'QQ123456C',
      nationality: 'GBR',
      online_idv: false,
      locked_fields: [],
    },
    '/api/s/case-addresses/': {
      count: 1,
      next: null,
      previous: null,
      gaps: [],
      results: [
        {
          id: 1,
          line_one: '1 High Street',
          line_two: '',
          town: 'Leeds',
          postcode: 'LS1 1AA',
          from_date: '2015-01-01',
          to_date: null,
          current: true,
        },
      ],
    },
    '/api/s/case-documents/': {
      count: 5,
      next: null,
      previous: null,
      results: [
        doc(1, 'identity', 'Passport', 'passport', 1),
        doc(2, 'identity', 'Utility bill', 'utility-bill', 2),
        doc(3, 'identity', 'Bank statement', 'bank-statement', 1),
        doc(4, 'right-to-work', 'British passport', 'british-passport', 1),
        { ...doc(5, 'identity', 'Council tax statement', 'council-tax', 1), rejected: true },
      ],
    },
    '/api/s/case-birth-details/7/': {
      case: 7,
      country: 'GBR',
      country_dbs: '',
      town: 'Leeds',
      town_dbs: '',
      county: '',
      county_dbs: '',
      locked_fields: [],
    },
    '/api/s/case-dbs-details/7/': {
      case: 7,
      idv_option: 'video-call',
      video_call_date: '2099-03-02',
      in_person_expected_date: null,
      state: 'pending',
    },
    '/api/s/case-dbs-update-details/7/': {
      case: 7,
      certificate_number: '001234567890',
      surname: 'Smith',
      dob: '1990-05-04',
    },
    '/api/s/case-driving-licences/7/': {
      case: 7,
      licence_type: 'photo',
      number: 'SMITH905040Z99AB',
      country: 'GBR',
      country_dbs: '',
      dob: '1990-05-04',
      issue_date: null,
      expiry_date: '2030-01-01',
      no_surname: false,
      source: 'manual',
      locked_fields: [],
    },
    '/api/s/case-rtw-details/7/': {
      case: 7,
      route: 'share-code',
      share_code: 'W12345678',
      verification_method_display: '',
      checked_by: null,
      checked_at: null,
      state_display: '',
    },
    '/api/s/consents/': [
      { id: 1, case: 7, case_activity: 44, kind: 'dbs-application', status: 'active' },
      { id: 2, case: 7, case_activity: 47, kind: 'dbs-update', status: 'active' },
      { id: 3, case: 7, case_activity: 48, kind: 'driver-data', status: 'active' },
    ],
  };

  it('shows what was entered, formatted, section by section, each with its change link', async () => {
    mockFetch((call: Call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/api/s/case-portal/7/') {
        const p = portalPayload({ activityCodes: codes, last: 'rtw' });
        p.portal.case_activities = activities;
        return { status: 200, body: p };
      }
      const body = bodies[path];
      return body === undefined ? { status: 404, body: {} } : { status: 200, body };
    });
    renderPortal(7, 'review');
    const review = await screen.findByTestId('review', {}, { timeout: 5000 });
    // every section, none saying only 'Completed.'
    await waitFor(() => expect(screen.getAllByTestId('review-block')).toHaveLength(10));
    expect(within(review).queryByText('Completed.')).toBeNull();
    for (const name of [
      'Change online identity check',
      'Change basic details',
      'Change address history',
      'Change documents',
      'Change enhanced DBS check',
      'Change standard DBS check',
      'Change basic DBS check',
      'Change DBS update service',
      'Change driver data',
      'Change right to work',
    ]) {
      expect(screen.getByRole('link', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Change documents' })).toHaveAttribute(
      'href',
      '/s/case-portal/7/document-collection',
    );
    const block = (name: string) =>
      within(
        screen.getByRole('link', { name }).closest('[data-testid="review-block"]') as HTMLElement,
      );
    // basic details: the nationality chosen, the phone as people read it
    await block('Change basic details').findByText('British');
    expect(block('Change basic details').queryByText('United Kingdom')).toBeNull();
    expect(block('Change basic details').getByText('07911 123456')).toBeInTheDocument();
    expect(screen.queryByText('+447911123456')).toBeNull();
    // documents: the four uploaded, by list, not the rejected one
    const docs = block('Change documents');
    await docs.findByText('Passport');
    for (const name of ['Utility bill', 'Bank statement', 'British passport']) {
      expect(docs.getByText(name)).toBeInTheDocument();
    }
    expect(docs.getByText('Identity documents')).toBeInTheDocument();
    expect(docs.getByText('Right to work documents')).toBeInTheDocument();
    expect(docs.queryByText('Council tax statement')).toBeNull();
    expect(docs.getByText(/2 pages/)).toBeInTheDocument();
    // the criminal-record answers once, with the first level; each level's consent
    const enhanced = block('Change enhanced DBS check');
    await enhanced.findByText('Leeds');
    expect(enhanced.getByText('On a video call, showing my documents')).toBeInTheDocument();
    expect(enhanced.getByText('2nd Mar 2099')).toBeInTheDocument();
    expect(enhanced.getByText('Consent given')).toBeInTheDocument();
    expect(block('Change standard DBS check').queryByText('Leeds')).toBeNull();
    expect(block('Change standard DBS check').getByText('Not given yet')).toBeInTheDocument();
    // the other sections
    await block('Change DBS update service').findByText('001234567890');
    await block('Change driver data').findByText('SMITH905040Z99AB');
    expect(block('Change driver data').getByText('Photocard')).toBeInTheDocument();
    await block('Change right to work').findByText('W12345678');
    expect(
      block('Change right to work').getByText('I have a share code (online check)'),
    ).toBeInTheDocument();
    expect(
      block('Change online identity check').getByText(/Not verified online/),
    ).toBeInTheDocument();
    expect(block('Change address history').getByText(/1 High Street/)).toBeInTheDocument();
  });
});
