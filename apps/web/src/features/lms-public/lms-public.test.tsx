import {
  TAX_CHECK_CODE_EXPIRED,
  TAX_CHECK_CODE_INVALID,
  TAX_RESPONSIBILITIES_REQUIRED,
} from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../config/paths';
import { resetSession, setSession } from '../../lib/session/session-store';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { productIn, subjectIn } from '../../test/sessions';
import { LicenceApplications } from './components/licence-applications';
import { application, council, group, page, portal, subGroup, subjectPortal } from './fixtures';
import PublicPortal from './screens/application-portal';
import CouncilScreen from './screens/lms-council';
import CouncilListScreen from './screens/lms-council-list';
import GroupScreen from './screens/lms-licence-group';
import SubGroupScreen from './screens/lms-licence-sub-group';
import SubjectPortal from './screens/s-application-portal';
import ApplicationScreen from './screens/s-lms-application';
import SubjectCouncilListScreen from './screens/s-lms-council-list';
import SubjectSubGroupScreen from './screens/s-lms-licence-sub-group';

function show(path: string, pattern: string, Component: React.ComponentType) {
  const router = createMemoryRouter(
    [
      { path: pattern, Component },
      { path: '*', Component: () => <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const pathOf = (c: Call) => new URL(c.url, 'http://x').pathname;
const searchOf = (c: Call) => new URL(c.url, 'http://x').searchParams;

/** The public API of the demo council: one group, one sub-group, one open portal. */
function publicApi(over: Record<string, { status: number; body?: unknown }> = {}) {
  return mockFetch((c) => {
    const path = pathOf(c);
    if (over[path]) return over[path];
    const answers: Record<string, unknown> = {
      '/api/lms/public/customers/': page([council, { id: 8, name: 'Southbay Council' }]),
      '/api/lms/public/customers/7/': council,
      '/api/lms/public/licence-groups/': page([group]),
      '/api/lms/public/licence-groups/3/': group,
      '/api/lms/public/licence-sub-groups/': page([subGroup]),
      '/api/lms/public/licence-sub-groups/5/': subGroup,
      '/api/lms/public/application-portals/': page([portal()]),
      '/api/lms/public/application-portals/9/': portal(),
    };
    const body = answers[path];
    return body === undefined
      ? { status: 404, body: { detail: 'Not found.' } }
      : { status: 200, body };
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  resetSession();
});

describe('council browsing (public)', () => {
  it('lists the councils, each leading to its page', async () => {
    publicApi();
    show('/lms/council-list', PATHS['lms-council-list'], CouncilListScreen);
    const list = await screen.findByTestId('lms-councils');
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Northgate Council', '/lms/7'],
      ['Southbay Council', '/lms/8'],
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Apply for a licence from your council',
    );
  });

  it('keeps a signed-in subject on the /s/ pages', async () => {
    setSession(subjectIn());
    publicApi();
    show('/s/lms/council-list', PATHS['s:lms-council-list'], SubjectCouncilListScreen);
    const list = await screen.findByTestId('lms-councils');
    expect(within(list).getByRole('link', { name: 'Northgate Council' }).getAttribute('href')).toBe(
      '/s/lms/7',
    );
  });

  it("shows a council's published groups with breadcrumbs", async () => {
    const calls = publicApi();
    show('/lms/7', PATHS['lms-council'], CouncilScreen);
    const list = await screen.findByTestId('lms-groups');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Northgate Council');
    const link = within(list).getByRole('link', { name: 'Taxi and private hire' });
    expect(link.getAttribute('href')).toBe('/lms/7/3');
    expect(list.textContent).toContain('Drivers, operators and vehicles.');
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Councils' }).getAttribute('href')).toBe(
      '/lms/council-list',
    );
    expect(crumbs.getByText('Northgate Council').getAttribute('aria-current')).toBe('page');
    const groupsCall = calls.find((c) => pathOf(c) === '/api/lms/public/licence-groups/');
    expect(groupsCall && searchOf(groupsCall).get('customer')).toBe('7');
  });

  it("shows a group's sub-groups, and not a group under another council's address", async () => {
    publicApi();
    show('/lms/7/3', PATHS['lms-licence-group'], GroupScreen);
    const list = await screen.findByTestId('lms-sub-groups');
    expect(
      within(list).getByRole('link', { name: 'Hackney carriage driver' }).getAttribute('href'),
    ).toBe('/lms/7/3/5');
    vi.unstubAllGlobals();
    publicApi({
      '/api/lms/public/customers/8/': { status: 200, body: { id: 8, name: 'Southbay' } },
    });
    show('/lms/8/3', PATHS['lms-licence-group'], GroupScreen);
    expect((await screen.findByTestId('lms-missing')).textContent).toContain('Page not found');
  });

  it('shows the open portals of a sub-group with their fee, kind and needs', async () => {
    const calls = publicApi();
    show('/lms/7/3/5', PATHS['lms-licence-sub-group'], SubGroupScreen);
    const card = within(await screen.findByTestId('lms-portal'));
    const link = card.getByRole('link', { name: 'Apply for a hackney carriage driver licence' });
    expect(link.getAttribute('href')).toBe('/application-portals/9');
    expect(card.getByText('£275.00')).toBeTruthy();
    expect(card.getByText('New application')).toBeTruthy();
    expect(card.getByText('3 years')).toBeTruthy();
    expect(card.getByText(/Enhanced DBS check, Driver data, Medical certificate/)).toBeTruthy();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual([
      '/lms/council-list',
      '/lms/7',
      '/lms/7/3',
    ]);
    const portalsCall = calls.find((c) => pathOf(c) === '/api/lms/public/application-portals/');
    expect(portalsCall && searchOf(portalsCall).get('sub_group')).toBe('5');
  });

  it('says when no application is open, and links the subject side under /s/', async () => {
    setSession(subjectIn());
    publicApi({ '/api/lms/public/application-portals/': { status: 200, body: page([]) } });
    show('/s/lms/7/3/5', PATHS['s:lms-licence-sub-group'], SubjectSubGroupScreen);
    expect((await screen.findByTestId('lms-portals-empty')).textContent).toContain(
      'No applications are open',
    );
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Northgate Council' }).getAttribute('href')).toBe(
      '/s/lms/7',
    );
  });

  it('asks to wait when the server says too many requests', async () => {
    publicApi({ '/api/lms/public/customers/': { status: 429, body: { detail: 'Slow down' } } });
    show('/lms/council-list', PATHS['lms-council-list'], CouncilListScreen);
    const alert = await screen.findByTestId('lms-failed');
    expect(alert.textContent).toContain('Wait a minute');
  });
});

describe('the public application portal', () => {
  it('says what the licence needs and costs, then sends a visitor to sign in with next', async () => {
    publicApi();
    show('/application-portals/9', PATHS['application-portal'], PublicPortal);
    await screen.findByRole('heading', { level: 1, name: portal().title });
    const facts = screen.getByTestId('portal-facts');
    expect(facts.textContent).toContain('£275.00');
    expect(facts.textContent).toContain('3 years');
    const needs = screen.getByTestId('portal-needs');
    for (const item of ['Enhanced DBS check', 'Medical certificate (Group 2)']) {
      expect(within(needs).getByText(item)).toBeTruthy();
    }
    expect(within(needs).getByText('I have read the council’s conditions.')).toBeTruthy();
    const next = encodeURIComponent('/s/application-portals/9');
    expect(screen.getByRole('link', { name: 'Sign in to apply' }).getAttribute('href')).toBe(
      `/login?next=${next}&subject=y`,
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      `/signup?next=${next}&subject=y`,
    );
    // the breadcrumbs name the group and sub-group once known
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    await waitFor(() =>
      expect(crumbs.getByRole('link', { name: 'Hackney carriage driver' })).toBeTruthy(),
    );
  });

  it('tells staff signed in to sign out to apply', async () => {
    setSession(productIn());
    publicApi();
    show('/application-portals/9', PATHS['application-portal'], PublicPortal);
    expect((await screen.findByTestId('staff')).textContent).toContain('sign out');
    expect(screen.queryByRole('link', { name: 'Sign in to apply' })).toBeNull();
  });

  it('is not found once closed', async () => {
    publicApi({ '/api/lms/public/application-portals/9/': { status: 404, body: {} } });
    show('/application-portals/9', PATHS['application-portal'], PublicPortal);
    expect((await screen.findByTestId('lms-missing')).textContent).toContain('Page not found');
  });
});

/** The subject's API: their portal (tax check, open application) and apply's answer. */
function subjectApi(
  own: ReturnType<typeof subjectPortal>,
  apply: { status: number; body?: unknown } = {
    status: 201,
    body: { application_id: 21, state: 'awaiting_payment', next_url: '/payment-portal/pit_1' },
  },
) {
  return mockFetch((c) => {
    const path = pathOf(c);
    if (path === '/api/lms/s/application-portals/9/') return { status: 200, body: own };
    if (path === '/api/lms/s/application-portals/9/apply/') return apply;
    if (path === '/api/lms/public/licence-groups/3/') return { status: 200, body: group };
    if (path === '/api/lms/public/licence-sub-groups/5/') return { status: 200, body: subGroup };
    return { status: 404, body: {} };
  });
}

describe("the subject's application portal", () => {
  it('asks a new applicant to confirm their tax responsibilities, then goes to pay', async () => {
    setSession(subjectIn());
    const calls = subjectApi(subjectPortal());
    const router = show('/s/application-portals/9', PATHS['s:application-portal'], SubjectPortal);
    const apply = await screen.findByRole('button', { name: 'Apply and pay £275.00' });
    fireEvent.click(apply);
    const summary = await screen.findByTestId('error-summary');
    expect(summary.textContent).toContain(TAX_RESPONSIBILITIES_REQUIRED);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByLabelText('I understand my tax responsibilities'));
    fireEvent.click(apply);
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment-portal/pit_1'));
    const post = calls.find((c) => c.method === 'POST');
    expect(post && pathOf(post)).toBe('/api/lms/s/application-portals/9/apply/');
    expect(post?.body).toEqual({ tax_responsibilities_confirmed: true });
  });

  it('asks for a tax check code where one is needed and shows what HMRC said', async () => {
    setSession(subjectIn());
    const calls = subjectApi(subjectPortal({ tax_check: 'code', kind: 'renewal' }), {
      status: 400,
      body: { tax_check_code: [TAX_CHECK_CODE_EXPIRED] },
    });
    show('/s/application-portals/9', PATHS['s:application-portal'], SubjectPortal);
    const input = await screen.findByLabelText('Tax check code');
    expect(screen.queryByLabelText('I understand my tax responsibilities')).toBeNull();
    fireEvent.change(input, { target: { value: 'abc12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply and pay £275.00' }));
    expect((await screen.findByTestId('error-summary')).textContent).toContain(
      TAX_CHECK_CODE_INVALID,
    );
    fireEvent.change(input, { target: { value: 'abc 123-xyz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply and pay £275.00' }));
    await waitFor(() =>
      expect(screen.getByTestId('error-summary').textContent).toContain(TAX_CHECK_CODE_EXPIRED),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ tax_check_code: 'ABC123XYZ' });
  });

  it('takes a code from someone licensed by another council', async () => {
    setSession(subjectIn());
    const calls = subjectApi(subjectPortal({ fee_pence: 0, fee_display: '£0.00' }), {
      status: 201,
      body: { application_id: 22, state: 'in_progress', next_url: '/s/case-portal/41' },
    });
    const router = show('/s/application-portals/9', PATHS['s:application-portal'], SubjectPortal);
    fireEvent.click(
      await screen.findByLabelText('I hold this type of licence with another council'),
    );
    fireEvent.change(screen.getByLabelText('Tax check code'), { target: { value: 'ABC123XYZ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/s/case-portal/41'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      tax_check_code: 'ABC123XYZ',
      holds_licence_elsewhere: true,
    });
  });

  it('shows an open application and its way on instead of the form', async () => {
    setSession(subjectIn());
    subjectApi(
      subjectPortal({
        my_application: {
          id: 21,
          reference: 'APP-000021',
          state: 'awaiting_payment',
          state_label: 'Awaiting payment',
          next_url: '/payment-portal/pit_1',
        },
      }),
    );
    show('/s/application-portals/9', PATHS['s:application-portal'], SubjectPortal);
    const mine = within(await screen.findByTestId('my-application'));
    expect(mine.getByText('Awaiting payment')).toBeTruthy();
    expect(mine.getByRole('link', { name: 'Pay the fee of £275.00' }).getAttribute('href')).toBe(
      '/payment-portal/pit_1',
    );
    expect(screen.queryByTestId('apply-form')).toBeNull();
  });
});

describe("the subject's licence applications (dashboard)", () => {
  function showApplications(results: unknown[] | null, respond = { status: 200, body: {} }) {
    const calls = mockFetch((c) => {
      const path = pathOf(c);
      if (path === '/api/lms/s/applications/') {
        return results === null ? { status: 404, body: {} } : { status: 200, body: page(results) };
      }
      if (path.endsWith('/respond/')) return respond;
      return { status: 404, body: {} };
    });
    show('/s/dashboard', '/s/dashboard', LicenceApplications);
    return calls;
  }

  it('shows each application with its state and the way on', async () => {
    setSession(subjectIn());
    showApplications([
      application(),
      application({
        id: 22,
        reference: 'APP-000022',
        state: 'granted',
        state_label: 'Granted',
        next_url: null,
        licence_number: 'HCD/2026/00007',
        submitted_at: '2026-11-01T09:00:00.000Z',
      }),
    ]);
    const cards = await screen.findAllByTestId('licence-application');
    expect(cards).toHaveLength(2);
    const first = within(cards[0] as HTMLElement);
    expect(first.getByText('In progress')).toBeTruthy();
    expect(
      first.getByRole('link', { name: 'Continue your application' }).getAttribute('href'),
    ).toBe('/s/case-portal/40');
    const second = within(cards[1] as HTMLElement);
    expect(second.getByText('HCD/2026/00007')).toBeTruthy();
    // decided: only its reference leads on, to the application's page
    expect(second.getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual([
      '/s/lms/applications/22',
    ]);
  });

  it('offers Renew on a granted application whose licence can be renewed, and only there', async () => {
    setSession(subjectIn());
    const granted = {
      state: 'granted' as const,
      state_label: 'Granted',
      next_url: null,
      licence_number: 'HCD/2026/00007',
    };
    showApplications([
      application({
        id: 22,
        reference: 'APP-000022',
        ...granted,
        renew_url: '/s/application-portals/12',
      }),
      application({
        id: 23,
        reference: 'APP-000023',
        ...granted,
        submitted_at: '2026-10-01T09:00:00.000Z',
      }),
      // never a way off the site
      application({ id: 24, reference: 'APP-000024', ...granted, renew_url: 'https://evil.test/' }),
    ]);
    const cards = await screen.findAllByTestId('licence-application');
    const renew = cards.map((c) => within(c).queryByRole('link', { name: 'Renew' }));
    expect(renew.map((r) => r?.getAttribute('href') ?? null)).toEqual([
      '/s/application-portals/12',
      null,
      null,
    ]);
  });

  it("shows the council's question first, and sends the reply", async () => {
    setSession(subjectIn());
    const calls = showApplications([
      application({ id: 23, reference: 'APP-000023', submitted_at: '2026-11-25T09:00:00.000Z' }),
      application({
        state: 'more_info_requested',
        state_label: 'More information requested',
        info_request: 'Please send your medical certificate.',
      }),
    ]);
    const request = await screen.findByTestId('info-request');
    expect(request.textContent).toContain('Please send your medical certificate.');
    const [first] = screen.getAllByTestId('licence-application');
    expect(first?.textContent).toContain('APP-000021');
    fireEvent.click(within(request).getByRole('button', { name: 'Send reply' }));
    expect(await within(request).findByText('Required')).toBeTruthy();
    fireEvent.change(within(request).getByLabelText('Your reply'), {
      target: { value: 'Sent by post today.' },
    });
    fireEvent.click(within(request).getByRole('button', { name: 'Send reply' }));
    expect((await screen.findByTestId('reply-sent')).textContent).toContain('Northgate Council');
    const post = calls.find((c) => c.method === 'POST');
    expect(post && pathOf(post)).toBe('/api/lms/s/applications/21/respond/');
    expect(post?.body).toEqual({ message: 'Sent by post today.' });
  });

  it('offers the councils when there is no application', async () => {
    setSession(subjectIn());
    showApplications([]);
    const none = await screen.findByTestId('licence-applications-none');
    expect(within(none).getByRole('link').getAttribute('href')).toBe('/s/lms/council-list');
  });
});

describe("a subject's licence application", () => {
  const answer = (app: ReturnType<typeof application>) =>
    mockFetch((c) =>
      pathOf(c) === `/api/lms/s/applications/${app.id}/`
        ? { status: 200, body: app }
        : { status: 404, body: {} },
    );

  it('says a fee is due, with no button back to itself', async () => {
    setSession(subjectIn());
    answer(
      application({
        state: 'awaiting_payment',
        state_label: 'Awaiting payment',
        next_url: '/s/lms/applications/21',
        case_id: null,
      }),
    );
    show('/s/lms/applications/21', PATHS['s:lms-application'], ApplicationScreen);
    expect((await screen.findByTestId('application-state-text')).textContent).toBe(
      'The fee of £275.00 is due before your checks can start.',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Hackney carriage driver licence (3 years)',
    );
    expect(screen.getByTestId('application-facts').textContent).toContain('APP-000021');
    expect(screen.queryByRole('link', { name: /Pay|Continue|See your/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Your checks' }).getAttribute('href')).toBe(
      '/s/dashboard',
    );
  });

  it('offers the holder Renew on their granted application, leading to the renewal portal', async () => {
    setSession(subjectIn());
    const granted = {
      state: 'granted' as const,
      state_label: 'Granted',
      next_url: null,
      licence_number: 'HCD/2026/00007',
    };
    answer(application({ ...granted, renew_url: '/s/application-portals/12' }));
    const router = show('/s/lms/applications/21', PATHS['s:lms-application'], ApplicationScreen);
    const box = await screen.findByTestId('renew-licence-box');
    expect(box.textContent).toContain(
      'Your licence HCD/2026/00007 can be renewed before it expires: apply to Northgate Council for its renewal.',
    );
    fireEvent.click(within(box).getByRole('link', { name: 'Renew' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/s/application-portals/12'));
  });

  it('has no Renew once the licence cannot be renewed', async () => {
    setSession(subjectIn());
    answer(
      application({
        state: 'granted',
        state_label: 'Granted',
        next_url: null,
        licence_number: 'HCD/2026/00007',
      }),
    );
    show('/s/lms/applications/21', PATHS['s:lms-application'], ApplicationScreen);
    await screen.findByTestId('application-state-text');
    expect(screen.queryByRole('link', { name: 'Renew' })).toBeNull();
  });

  it('takes an application in progress on to its case portal', async () => {
    setSession(subjectIn());
    answer(application());
    show('/s/lms/applications/21', PATHS['s:lms-application'], ApplicationScreen);
    const next = await screen.findByRole('link', { name: 'Continue your application' });
    expect(next.getAttribute('href')).toBe('/s/case-portal/40');
  });
});
