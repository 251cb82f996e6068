import {
  type CaseActivityOut,
  type CaseDetailOut,
  type CaseDocumentOut,
  ERASURE_CASE_NOTICE,
  ERASURE_CASE_REASON,
  type Permission,
} from '@kestrel/domain';
import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { product, productIn } from '../../../test/sessions';
import CaseDetailPage from './case-detail';

// The page's lazy parts loaded before the tests: what it shows does not wait on an import.
beforeAll(async () => {
  await import('../../documents');
  await import('../../case-data');
});
afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const activity = (id: number, code: string, name: string): CaseActivityOut => ({
  id,
  case: {
    id: 7,
    state: 'in-progress',
    subject: { id: 3, first_name: 'Sam', last_name: 'Taylor', email: 'sam@example.test' },
  },
  state: 'ca-awaiting-ops',
  state_display: 'Awaiting operations',
  activity_type: code,
  activity_type_name: name,
  key: code,
  config: {},
  result_data: {},
  processing_data: {},
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-21T09:00:00Z',
  completed_at: null,
});

function detail(activities: CaseActivityOut[]): CaseDetailOut {
  return {
    id: 7,
    customer: 1,
    state: 'in-progress',
    state_display: 'In progress',
    process: { id: 2, name: 'Care worker' },
    subject: {
      id: 3,
      first_name: 'Sam',
      middlename: '',
      last_name: 'Taylor',
      email: 'sam@example.test',
      dob: '1990-04-12',
      phone_number: '',
      has_account: true,
      is_archived: false,
      archived_at: null,
      created_at: '2026-11-01T09:00:00Z',
      open_cases: 1,
    },
    created_at: '2026-11-20T09:00:00Z',
    updated_at: '2026-11-21T09:00:00Z',
    completed_at: null,
    decision: null,
    decision_notes: '',
    cancelled_reason: '',
    is_archived: false,
    archived_at: null,
    flagged: false,
    summary: { activities: activities.length, open: activities.length, complete: 0, cancelled: 0 },
    case_activities: activities,
    archivable: false,
    payment: null,
  };
}

const passport: CaseDocumentOut = {
  id: 11,
  case: 7,
  case_activity: 21,
  collector: 'identity',
  document_type: 'Passport',
  document_type_code: 'passport',
  group: '1',
  route_index: null,
  source: 'manual',
  extension: 'png',
  content_url: '/api/case-documents/11/download/',
  thumbnail_url: '/api/case-documents/11/thumbnail/',
  rejected: false,
  rejection_reason: '',
  rejected_at: null,
  rejected_by: '',
  confirmations: [],
  confirmed: false,
  pages: [
    {
      page: 1,
      original_name: 'passport.png',
      content_type: 'image/png',
      extension: 'png',
      size: 100,
      converted_from: null,
      content_url: '/api/case-documents/11/download/',
      thumbnail_url: '/api/case-documents/11/thumbnail/',
      preview: 'ready',
    },
  ],
  uploaded_by: 'SubjectUser',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
};

function renderCase(
  c: CaseDetailOut,
  permissions: Permission[] = ['cases.view_case', 'cases.change_caseactivity'],
) {
  const calls = mockFetch((call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (path === '/api/cases/7/') return { status: 200, body: c };
    if (path === '/api/case-documents/') {
      return { status: 200, body: { count: 1, next: null, previous: null, results: [passport] } };
    }
    return { status: 404, body: { detail: 'Not found.' } };
  });
  setSession(productIn(product({ session_permissions: permissions })));
  const router = createMemoryRouter([{ path: '/cases/:id', Component: CaseDetailPage }], {
    initialEntries: ['/cases/7'],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return calls;
}

/** Each list of the document shows it with its copy-id button. */
const copyButtons = () => screen.queryAllByRole('button', { name: 'Copy document id 11' });

describe('the customer case page shows the case’s documents once', () => {
  it('with a document collection: in its panel (with the review), not again in a card of their own', async () => {
    renderCase(
      detail([
        activity(20, 'basic-details', 'Basic details'),
        activity(21, 'document-collection', 'Document collection'),
      ]),
    );
    expect(await screen.findByTestId('collected-document')).toBeInTheDocument();
    // the richer list: the reviewer may reject the document there
    expect(screen.getByRole('button', { name: /Reject/ })).toBeInTheDocument();
    // every part of the page is there (the case data panel is the last) before counting
    await waitFor(() => expect(screen.queryByText('Loading documents')).toBeNull());
    await screen.findByTestId('case-data');
    expect(screen.queryByTestId('case-documents-card')).toBeNull();
    expect(copyButtons()).toHaveLength(1);
  });

  it('without one (documents from another check): in the Documents card', async () => {
    renderCase(detail([activity(20, 'basic-details', 'Basic details')]));
    expect(await screen.findByTestId('case-documents-card')).toBeInTheDocument();
    expect(await screen.findByTestId('case-documents')).toBeInTheDocument();
    expect(copyButtons()).toHaveLength(1);
    expect(screen.queryByTestId('collected-document')).toBeNull();
  });
});

describe('a case held back for its payment', () => {
  const unclaimed = (payment: CaseDetailOut['payment']): CaseDetailOut => {
    const c = detail([]);
    return { ...c, subject: { ...c.subject, has_account: false }, payment };
  };
  const rights: Permission[] = ['cases.view_case', 'subjects.change_subject'];

  it('offers no invitation to resend while the payment is needed', async () => {
    renderCase(
      unclaimed({
        state: 'payment_needed',
        state_display: 'Payment needed',
        amount_pence: 450,
        amount_display: '£4.50',
        reason: 'Your card has insufficient funds.',
        product_payment: 5,
        attempts: 1,
        card: 'Visa ending 9995',
      }),
      rights,
    );
    await screen.findByTestId('case-payment-banner');
    expect(screen.queryByRole('button', { name: /Resend invitation/ })).toBeNull();
  });

  it('offers it for a case not held back', async () => {
    renderCase(unclaimed(null), rights);
    expect(await screen.findByRole('button', { name: /Resend invitation/ })).toBeTruthy();
  });
});

describe('a case an erasure closed (issue 34)', () => {
  const closed = (reason: string): CaseDetailOut => {
    const c = detail([
      { ...activity(20, 'basic-details', 'Basic details'), state: 'ca-cancelled' },
    ]);
    return {
      ...c,
      state: 'cancelled',
      state_display: 'Cancelled',
      cancelled_reason: reason,
      subject: { ...c.subject, first_name: 'Erased', last_name: 'subject', has_account: false },
    };
  };
  const rights: Permission[] = ['cases.view_case', 'subjects.change_subject'];

  it('shows the erasure notice in place of the case data forms, and no invitation to resend', async () => {
    renderCase(closed(ERASURE_CASE_REASON), rights);
    expect(await screen.findByTestId('erasure-notice')).toHaveTextContent(ERASURE_CASE_NOTICE);
    expect(screen.getByText(ERASURE_CASE_REASON)).toBeInTheDocument();
    expect(screen.queryByTestId('case-data')).toBeNull();
    expect(screen.queryByRole('button', { name: /Resend invitation/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send reminder' })).toBeNull();
  });

  it('keeps the forms on a case cancelled for another reason', async () => {
    renderCase(closed('Withdrew the application'), rights);
    expect(await screen.findByTestId('case-data')).toBeInTheDocument();
    expect(screen.queryByTestId('erasure-notice')).toBeNull();
  });
});
