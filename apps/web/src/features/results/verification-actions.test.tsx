import { IDENTITY_CHECK_MESSAGES, type IdentityCheckOut } from '@kestrel/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { product, productIn } from '../../test/sessions';
import { ActivityResult } from './activity-result';
import { VerificationActions } from './verification-actions';

const inRouter = (ui: React.ReactElement) => renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>);

afterEach(() => resetSession());

describe('verification: the verifier records discrepancies', () => {
  it('verify: an optional "Discrepancy notes" text area sent with the verification', async () => {
    const calls = mockFetch(() => ({ status: 200, body: { case: 14, state: 'verified' } }));
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending' }}
        family="customer"
      />,
    );
    const area = screen.getByRole('textbox', { name: 'Discrepancy notes' });
    expect(area).toHaveAttribute('rows', '4');
    fireEvent.change(area, { target: { value: 'Middle name missing on the utility bill' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify identity' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/case-dbs-details/14/verify/',
      body: { discrepancy_notes: 'Middle name missing on the utility bill' },
    });
    expect(await screen.findByText('Successfully updated DBS details')).toBeInTheDocument();
  });

  it('verify without notes sends none; notes already recorded are shown to start with', async () => {
    const calls = mockFetch(() => ({ status: 200, body: { case: 14, state: 'verified' } }));
    const { unmount } = inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending' }}
        family="customer"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Verify identity' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
    unmount();
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending', discrepancy_notes: 'Old surname on licence' }}
        family="customer"
      />,
    );
    expect(screen.getByRole('textbox', { name: 'Discrepancy notes' })).toHaveValue(
      'Old surname on licence',
    );
  });

  it('over 400 characters: "Max length 400" and nothing sent', async () => {
    const calls = mockFetch(() => ({ status: 200, body: {} }));
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending' }}
        family="ops"
      />,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Discrepancy notes' }), {
      target: { value: 'x'.repeat(401) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify identity' }));
    expect(await screen.findByText('Max length 400')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("the server's refusal shows on the field and in the error toast", async () => {
    mockFetch(() => ({ status: 400, body: { discrepancy_notes: ['Max length 400'] } }));
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending' }}
        family="ops"
      />,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Discrepancy notes' }), {
      target: { value: 'Name differs' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify identity' }));
    expect(await screen.findByText(/Error updating DBS details/)).toBeInTheDocument();
    expect(screen.getAllByText(/Max length 400/).length).toBeGreaterThan(0);
  });

  it('countersign: no notes, a bare Countersign', async () => {
    const calls = mockFetch(() => ({ status: 200, body: {} }));
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'verified' }}
        family="customer"
      />,
    );
    expect(screen.queryByRole('textbox', { name: 'Discrepancy notes' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Countersign' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/case-dbs-details/14/countersign/',
      body: {},
    });
  });

  it('ops on the activity result: the notes go to the ops verify path', async () => {
    setSession(
      productIn(
        product({
          session_permissions: ['cases.change_caseactivity', 'cases.countersign_casedbsdetails'],
        }),
      ),
    );
    const calls = mockFetch((call) =>
      call.url === '/api/ops/case-dbs-details/14/' && call.method === 'GET'
        ? { status: 200, body: { case: 14, state: 'pending', idv_option: 'online' } }
        : call.method === 'POST'
          ? { status: 200, body: { case: 14, state: 'verified' } }
          : { status: 404, body: {} },
    );
    inRouter(
      <ActivityResult
        activity={{
          id: 7,
          state: 'ca-awaiting-agent',
          activity_type: 'dbs-enhanced',
          case: { id: 14 },
        }}
        audience="ops"
        family="ops"
      />,
    );
    const area = await screen.findByRole('textbox', { name: 'Discrepancy notes' });
    fireEvent.change(area, { target: { value: 'Date of birth differs on passport' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify identity' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/ops/case-dbs-details/14/verify/',
      body: { discrepancy_notes: 'Date of birth differs on passport' },
    });
  });

  it('the subject gets no verification step', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { case: 14, state: 'pending', idv_option: 'online' },
    }));
    inRouter(
      <ActivityResult
        activity={{ id: 7, state: 'ca-awaiting-agent', activity_type: 'dbs-enhanced', case: 14 }}
        audience="subject"
      />,
    );
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(
      await screen.findByText('This application is awaiting verification.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Discrepancy notes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Verify identity' })).toBeNull();
  });
});

describe('verification: against the evidence, by those with the right', () => {
  const route1: IdentityCheckOut = {
    level: 'standard-enhanced',
    basis: 'documents',
    met: true,
    route: 1,
    problem: '',
    online_idv_passed: false,
    documents: [
      { id: 1, name: 'Passport', group: '1' },
      { id: 2, name: 'Bank or building society statement', group: '2b' },
      { id: 3, name: 'Utility bill (not a mobile phone bill)', group: '2b' },
    ],
  };

  it('shows the route the documents meet and which documents count', () => {
    mockFetch(() => ({ status: 200, body: {} }));
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending', identity_check: route1 }}
        family="customer"
      />,
    );
    const evidence = screen.getByTestId('dbs-evidence');
    expect(evidence).toHaveTextContent('Route 1 is met by the documents collected:');
    expect(evidence).toHaveTextContent('Passport (Group 1)');
    expect(evidence).toHaveTextContent('Utility bill (not a mobile phone bill) (Group 2b)');
    expect(screen.getByRole('button', { name: 'Verify identity' })).toBeEnabled();
  });

  it('basic and online evidence are named as such', () => {
    mockFetch(() => ({ status: 200, body: {} }));
    const { unmount } = inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{ state: 'pending', identity_check: { ...route1, level: 'basic' } }}
        family="customer"
      />,
    );
    expect(screen.getByTestId('dbs-evidence')).toHaveTextContent(
      "The basic check's route is met by the documents collected:",
    );
    unmount();
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{
          state: 'pending',
          identity_check: { ...route1, basis: 'online', route: null, documents: [] },
        }}
        family="customer"
      />,
    );
    expect(screen.getByTestId('dbs-evidence')).toHaveTextContent(
      'The online identity check has passed.',
    );
  });

  it('evidence short of a route: what is still needed, and Verify is off', () => {
    const calls = mockFetch(() => ({ status: 200, body: {} }));
    const problem = IDENTITY_CHECK_MESSAGES.routesNotMet(['a Group 1 document']);
    inRouter(
      <VerificationActions
        canVerify
        canCountersign
        caseId={14}
        details={{
          state: 'pending',
          identity_check: { ...route1, met: false, route: null, problem, documents: [] },
        }}
        family="ops"
      />,
    );
    expect(screen.getByText('The identity cannot be verified yet')).toBeInTheDocument();
    expect(screen.getByTestId('dbs-evidence')).toHaveTextContent(problem);
    const button = screen.getByRole('button', { name: 'Verify identity' });
    expect(button).toBeDisabled();
    fireEvent.click(button);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a verifier without the countersigning right gets no Countersign; a countersignatory no Verify', () => {
    mockFetch(() => ({ status: 200, body: {} }));
    const { unmount } = inRouter(
      <VerificationActions
        caseId={14}
        details={{ state: 'verified' }}
        family="customer"
        canVerify
        canCountersign={false}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Countersign' })).toBeNull();
    unmount();
    inRouter(
      <VerificationActions
        caseId={14}
        details={{ state: 'pending', identity_check: route1 }}
        family="customer"
        canVerify={false}
        canCountersign
      />,
    );
    expect(screen.queryByRole('button', { name: 'Verify identity' })).toBeNull();
  });

  it.each([
    [['cases.view_case', 'cases.change_caseactivity'], 'Verify identity', 'pending'],
    [['cases.view_case', 'cases.countersign_casedbsdetails'], 'Countersign', 'verified'],
  ] as const)(
    "on the activity result, the session's rights decide: %j",
    async (rights, shown, state) => {
      mockFetch((call) =>
        call.url === '/api/case-dbs-details/14/' && call.method === 'GET'
          ? {
              status: 200,
              body: { case: 14, state, idv_option: 'in-person', identity_check: route1 },
            }
          : { status: 404, body: {} },
      );
      setSession(productIn(product({ session_permissions: [...rights] })));
      inRouter(
        <ActivityResult
          activity={{
            id: 7,
            state: 'ca-awaiting-agent',
            activity_type: 'dbs-enhanced',
            case: { id: 14 },
          }}
          audience="customer"
          family="customer"
        />,
      );
      expect(await screen.findByRole('button', { name: shown })).toBeInTheDocument();
    },
  );
});
