import { APPLICATION_MESSAGES } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { APPLICATION, DEFINITION, PORTAL, page, renderAt } from '../test-kit';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const CHECKS_LEFT = 'The licence cannot be granted until every check is complete: Right to work.';

function answer(call: Call) {
  const path = new URL(call.url, 'http://x').pathname;
  if (path === '/api/lms/definitions/7/') return { status: 200, body: DEFINITION };
  if (path === '/api/lms/definitions/7/application_portals/' && call.method === 'GET')
    return { status: 200, body: page([PORTAL]) };
  if (path === '/api/lms/definitions/7/application_portals/11/' && call.method === 'GET')
    return { status: 200, body: PORTAL };
  if (path === '/api/lms/applications/') return { status: 200, body: page([APPLICATION]) };
  if (path === '/api/lms/applications/21/') return { status: 200, body: APPLICATION };
  return { status: 404, body: {} };
}

const PORTAL_URL = '/definitions/7/application_portals/11';

async function openApplication() {
  fireEvent.click(await screen.findByRole('link', { name: 'Dan Driver' }));
  return within(await screen.findByTestId('application-panel'));
}

describe('application portals', () => {
  it('lists the portals of the definition', async () => {
    mockFetch(answer);
    renderAt('/definitions/7/application-portals');
    const link = await screen.findByRole('link', { name: 'New private hire drivers' });
    expect(link.getAttribute('href')).toBe(PORTAL_URL);
    expect(screen.getByText('Open')).toBeTruthy();
  });

  it('adds an open portal at the fee typed and opens it', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' ? { status: 201, body: PORTAL } : answer(call),
    );
    const router = renderAt('/definitions/7/application_portals/add');
    const title = await screen.findByLabelText(/^Title/);
    fireEvent.change(title, { target: { value: 'Renewals' } });
    fireEvent.change(screen.getByLabelText(/^Applications/), { target: { value: 'renewal' } });
    fireEvent.change(screen.getByLabelText(/^Fee/), { target: { value: '75' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(PORTAL_URL));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      title: 'Renewals',
      introduction: '',
      is_open: true,
      kind: 'renewal',
      fee_pence: 7500,
    });
  });

  it('shows the public link and saves the portal closed', async () => {
    const calls = mockFetch((call) =>
      call.method === 'PATCH' ? { status: 200, body: { ...PORTAL, is_open: false } } : answer(call),
    );
    renderAt(PORTAL_URL);
    const link = await screen.findByTestId('portal-public-link');
    expect(link.textContent).toBe(`${window.location.origin}/application-portals/11`);
    expect(screen.getByRole('button', { name: 'Copy the public link' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/^Open/));
    fireEvent.click(screen.getByRole('button', { name: 'Save portal' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ is_open: false });
  });
});

describe("a portal's applications", () => {
  it('lists them with applicant, state and checks, filtered to the portal', async () => {
    const calls = mockFetch(answer);
    renderAt(PORTAL_URL);
    expect(await screen.findByRole('link', { name: 'Dan Driver' })).toBeTruthy();
    expect(screen.getAllByText('1 of 2 checks').length).toBeGreaterThan(0);
    const list = calls.find((c) => c.url.startsWith('/api/lms/applications/?'));
    expect(list?.url).toContain('portal=11');
  });

  it('opens one: checks, the tax check and the register matches in a warning', async () => {
    mockFetch(answer);
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    expect(panel.getByText('Enhanced DBS check')).toBeTruthy();
    expect(panel.getByText('ABC123DEF')).toBeTruthy();
    expect(panel.getByText('Not checked')).toBeTruthy();
    const register = within(panel.getByTestId('register-matches'));
    expect(register.getByText(/Driving while disqualified\./)).toBeTruthy();
    expect(register.getByText(/PHD\/2024\/00003/)).toBeTruthy();
  });

  it('checks the code with HMRC and shows the answer', async () => {
    const confirmed = {
      ...APPLICATION,
      tax_check: {
        ...APPLICATION.tax_check,
        status: 'confirmed' as const,
        status_label: 'Confirmed with HMRC',
        message: 'HMRC confirmed the code.',
      },
    };
    let checked = false;
    const calls = mockFetch((call) => {
      if (call.url === '/api/lms/applications/21/tax-check/') {
        checked = true;
        return { status: 200, body: confirmed };
      }
      if (call.url === '/api/lms/applications/21/' && checked)
        return { status: 200, body: confirmed };
      return answer(call);
    });
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    fireEvent.click(panel.getByRole('button', { name: 'Check with HMRC' }));
    expect(await panel.findByText('Confirmed with HMRC')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/tax-check/'))).toBe(true);
  });

  it('will not refuse without a reason, then refuses with one', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? { status: 200, body: { ...APPLICATION, state: 'refused', state_label: 'Refused' } }
        : answer(call),
    );
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    fireEvent.click(panel.getByRole('button', { name: 'Refuse' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Refuse the application?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Refuse' }));
    expect(await dialog.findByText('Required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(dialog.getByLabelText(/^Reason/), {
      target: { value: 'Convictions within the policy period.' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Refuse' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/lms/applications/21/refuse/');
    expect(post?.body).toEqual({ reason: 'Convictions within the policy period.' });
  });

  it("keeps the API's refusal to grant in the dialog", async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? { status: 400, body: { non_field_errors: [CHECKS_LEFT] } }
        : answer(call),
    );
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    fireEvent.click(panel.getByRole('button', { name: 'Grant' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Grant the licence?' }));
    fireEvent.change(dialog.getByLabelText(/^Conditions/), {
      target: { value: 'Display the badge.' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Grant' }));
    expect(await dialog.findByText(CHECKS_LEFT)).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/lms/applications/21/grant/');
    expect(post?.body).toEqual({ conditions: 'Display the badge.' });
  });

  it("says a grant renews a current holder's licence, and keeps the 409 of a suspended one", async () => {
    const suspended = APPLICATION_MESSAGES.holderSuspended('HCD/2026/00007');
    mockFetch((call) =>
      call.method === 'POST' ? { status: 409, body: { detail: suspended } } : answer(call),
    );
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    fireEvent.click(panel.getByRole('button', { name: 'Grant' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Grant the licence?' }));
    expect(
      dialog.getByText(
        'The licence is issued now with the next number in the council’s format, and the applicant is told. An applicant who already holds an active licence of this type has that licence renewed instead (no second licence).',
      ),
    ).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Grant' }));
    expect(await dialog.findByText(suspended)).toBeTruthy();
  });

  it('asks for more with a message; the field error of a 400 lands on the field', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? {
            status: 400,
            body: { message: ['Ensure this field has no more than 4000 characters.'] },
          }
        : answer(call),
    );
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    fireEvent.click(panel.getByRole('button', { name: 'Ask for more' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Ask the applicant for more?' }),
    );
    fireEvent.change(dialog.getByLabelText(/^Message/), {
      target: { value: 'Send your medical certificate.' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Ask for more' }));
    expect(
      await dialog.findByText('Ensure this field has no more than 4000 characters.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      message: 'Send your medical certificate.',
    });
  });

  it('sends the search and state kept in the URL', async () => {
    const calls = mockFetch(answer);
    renderAt(`${PORTAL_URL}?state=in_progress&q=dan`);
    await screen.findByRole('link', { name: 'Dan Driver' });
    const list = calls.find((c) => c.url.startsWith('/api/lms/applications/?'));
    expect(list?.url).toContain('state=in_progress');
    expect(list?.url).toContain('q=dan');
  });

  it('records a fee paid at the council on an application awaiting payment', async () => {
    const awaiting = {
      ...APPLICATION,
      state: 'awaiting_payment' as const,
      state_label: 'Awaiting payment',
      checks: [],
      checks_done: 0,
      checks_total: 0,
      case_id: null,
    };
    const calls = mockFetch((call) => {
      if (call.method === 'POST') return { status: 200, body: APPLICATION };
      if (call.url === '/api/lms/applications/21/') return { status: 200, body: awaiting };
      return answer(call);
    });
    renderAt(PORTAL_URL);
    const panel = await openApplication();
    expect(panel.queryByRole('button', { name: 'Grant' })).toBeNull();
    expect(panel.getByText('The checks start once the fee is paid.')).toBeTruthy();
    fireEvent.click(panel.getByRole('button', { name: 'Record payment' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Record the fee as paid?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/lms/applications/21/record-payment/');
    expect(post?.body).toEqual({ note: '' });
  });

  it('offers no decision without the licence permission', async () => {
    mockFetch(answer);
    renderAt(PORTAL_URL, [
      'lms_definitions.view_definition',
      'lms_definitions.change_definition',
      'lms_licences.view_licence',
    ]);
    const panel = await openApplication();
    expect(panel.queryByRole('button', { name: 'Grant' })).toBeNull();
    expect(panel.queryByRole('button', { name: 'Check with HMRC' })).toBeNull();
  });
});

describe('the section tabs', () => {
  it("mark 'Application portals' on a portal's page (the spec's underscore)", async () => {
    mockFetch(answer);
    renderAt(PORTAL_URL);
    const tab = await screen.findByRole('link', { name: 'Application portals' });
    expect(tab.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBeNull();
  });
});
