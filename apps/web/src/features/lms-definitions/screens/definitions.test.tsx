import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { DEFINITION, PORTAL, page, renderAt, SUB_GROUP } from '../test-kit';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function answer(call: Call) {
  const url = new URL(call.url, 'http://x');
  const path = url.pathname;
  if (path === '/api/lms/licence-sub-groups/') return { status: 200, body: page([SUB_GROUP]) };
  if (path === '/api/lms/definitions/' && call.method === 'GET')
    return { status: 200, body: page([DEFINITION]) };
  if (path === '/api/lms/definitions/7/' && call.method === 'GET')
    return { status: 200, body: DEFINITION };
  if (path === '/api/lms/definitions/7/application_portals/')
    return { status: 200, body: page([PORTAL]) };
  if (path === '/api/lms/applications/') {
    const counts: Record<string, number> = { '': 4, in_progress: 2, more_info_requested: 1 };
    return {
      status: 200,
      body: { ...page([]), count: counts[url.searchParams.get('state') ?? ''] ?? 0 },
    };
  }
  return { status: 404, body: {} };
}

describe('licence definitions list', () => {
  it('lists the definitions with sub-group, duration, fee and status', async () => {
    mockFetch(answer);
    renderAt('/definitions');
    const link = await screen.findByRole('link', { name: 'Private hire driver licence' });
    expect(link.getAttribute('href')).toBe('/definitions/7');
    const table = within(screen.getByRole('table'));
    expect(table.getByText('Taxi and private hire › Private hire driver')).toBeTruthy();
    expect(table.getByText('3 years')).toBeTruthy();
    expect(table.getByText('£150.00')).toBeTruthy();
    expect(table.getByText('Published')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add definition' })).toBeTruthy();
  });

  it('sends the sub-group filter kept in the URL', async () => {
    const calls = mockFetch(answer);
    renderAt('/definitions?sub_group=3');
    await screen.findByRole('link', { name: 'Private hire driver licence' });
    const list = calls.filter((c) => c.url.startsWith('/api/lms/definitions/'));
    expect(list.some((c) => c.url.includes('sub_group=3'))).toBe(true);
  });

  it('hides add without the permission', async () => {
    mockFetch(answer);
    renderAt('/definitions', ['lms_definitions.view_definition']);
    await screen.findByRole('link', { name: 'Private hire driver licence' });
    expect(screen.queryByRole('link', { name: 'Add definition' })).toBeNull();
  });
});

describe('a definition', () => {
  it('shows its overview: sub-group, duration, fee in pounds, requirements, portals, applications', async () => {
    mockFetch(answer);
    renderAt('/definitions/7');
    expect(
      await screen.findByRole('heading', { name: 'Private hire driver licence' }),
    ).toBeTruthy();
    expect(await screen.findByText('Enhanced DBS check')).toBeTruthy();
    expect(screen.getByText('Group 2 medical certificate')).toBeTruthy();
    expect(screen.getByText('I have read the policy.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'New private hire drivers' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('4')).toBeTruthy());
    expect(screen.getByText('2')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Requirements' })).toBeTruthy();
  });

  it('hides the details tab without the change permission; requirements are read only', async () => {
    mockFetch(answer);
    renderAt('/definitions/7/requirements', ['lms_definitions.view_definition']);
    expect(await screen.findByText('Read only')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save requirements' })).toBeNull();
    expect(screen.getByText('Group 2 medical certificate')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Details' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Application portals' })).toBeTruthy();
  });
});

describe('add a definition', () => {
  it('checks the fields in the browser before sending', async () => {
    const calls = mockFetch(answer);
    renderAt('/definitions/add');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add definition' }));
    expect((await screen.findAllByText('Choose the sub-group.')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Required').length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the fee in pence with the checks, documents and declarations, then opens it', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' ? { status: 201, body: DEFINITION } : answer(call),
    );
    const router = renderAt('/definitions/add?sub_group=3');
    fireEvent.change(await screen.findByLabelText(/^Name/), {
      target: { value: 'Hackney driver' },
    });
    fireEvent.change(screen.getByLabelText(/^Duration in years/), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText(/^Fee/), { target: { value: '150.50' } });
    fireEvent.click(screen.getByLabelText('Enhanced DBS check'));
    fireEvent.click(screen.getByLabelText('Knowledge test'));
    fireEvent.click(screen.getByRole('button', { name: 'Add document' }));
    fireEvent.change(screen.getByLabelText('Document 1'), {
      target: { value: 'Two passport photographs' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add definition' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/definitions/7'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      sub_group: 3,
      name: 'Hackney driver',
      description: '',
      duration_years: 3,
      fee_pence: 15050,
      requirements: [
        { activity_type: 'dbs-enhanced', config: {} },
        { activity_type: 'knowledge-test', config: {} },
      ],
      documents: ['Two passport photographs'],
      declarations: [],
      is_published: false,
    });
  });

  it("puts the server's 400 beside the field", async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? { status: 400, body: { name: ['A definition with this name already exists.'] } }
        : answer(call),
    );
    renderAt('/definitions/add?sub_group=3');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Taken' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add definition' }));
    await waitFor(() =>
      expect(
        screen.getAllByText('A definition with this name already exists.').length,
      ).toBeGreaterThan(0),
    );
    expect(screen.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
  });
});

describe('details and requirements', () => {
  it('saves the details as a PATCH with the fee in pence', async () => {
    const calls = mockFetch((call) =>
      call.method === 'PATCH' ? { status: 200, body: DEFINITION } : answer(call),
    );
    renderAt('/definitions/7/details');
    const fee = await screen.findByLabelText(/^Fee/);
    expect((fee as HTMLInputElement).value).toBe('£150.00');
    fireEvent.change(fee, { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      name: 'Private hire driver licence',
      description: 'Three years.',
      duration_years: 3,
      fee_pence: 9900,
      is_published: true,
    });
  });

  it("shows the licences' code (the sub-group's) and the council's number format", async () => {
    mockFetch((call) =>
      new URL(call.url, 'http://x').pathname ===
      `/api/lms/licence-sub-groups/${DEFINITION.sub_group}/`
        ? { status: 200, body: { ...SUB_GROUP, id: DEFINITION.sub_group, code: 'PHD' } }
        : answer(call),
    );
    renderAt('/definitions/7/details');
    await waitFor(() => expect(screen.getByTestId('definition-code').textContent).toBe('PHD'));
    expect(screen.getByTestId('number-format').textContent).toBe('{CODE}/{YYYY}/{SEQ}');
    expect(screen.getByTestId('number-example').textContent).toBe(
      `PHD/${new Date().getUTCFullYear()}/00001`,
    );
  });

  it('rejects a duration past the rule without sending', async () => {
    const calls = mockFetch(answer);
    renderAt('/definitions/7/details');
    fireEvent.change(await screen.findByLabelText(/^Duration in years/), {
      target: { value: '9' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save details' }));
    expect(
      (await screen.findAllByText('Ensure this value is less than or equal to 5.')).length,
    ).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('saves the requirements: a check removed, a declaration added', async () => {
    const calls = mockFetch((call) =>
      call.method === 'PATCH' ? { status: 200, body: DEFINITION } : answer(call),
    );
    renderAt('/definitions/7/requirements');
    fireEvent.click(await screen.findByLabelText('Right to work'));
    fireEvent.click(screen.getByRole('button', { name: 'Add declaration' }));
    fireEvent.change(screen.getByLabelText('Declaration 2'), {
      target: { value: 'I hold a DVLA licence.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save requirements' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      requirements: [{ activity_type: 'dbs-enhanced', config: {} }],
      documents: ['Group 2 medical certificate'],
      declarations: ['I have read the policy.', 'I hold a DVLA licence.'],
    });
  });

  it('will not send an empty declaration', async () => {
    const calls = mockFetch(answer);
    renderAt('/definitions/7/requirements');
    fireEvent.click(await screen.findByRole('button', { name: 'Add declaration' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save requirements' }));
    expect((await screen.findAllByText('Required')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });
});

describe('check settings', () => {
  it("edits the enhanced DBS check's settings and sends its configuration whole", async () => {
    const saved = {
      ...DEFINITION,
      requirements: [
        {
          activity_type: 'dbs-enhanced',
          activity_name: 'Enhanced DBS check',
          config: { workforce: 'CA', adult_barred_list: true },
        },
        DEFINITION.requirements[1],
      ],
    };
    const calls = mockFetch((call) =>
      call.method === 'PATCH' ? { status: 200, body: saved } : answer(call),
    );
    renderAt('/definitions/7/requirements');
    const row = within(await screen.findByTestId('check-settings-dbs-enhanced'));
    expect(row.getByText('No settings chosen: the product defaults apply.')).toBeTruthy();
    expect(
      within(screen.getByTestId('check-settings-rtw')).getByText('This check has no settings.'),
    ).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: 'Edit settings: Enhanced DBS check' }));
    fireEvent.change(row.getByLabelText('Workforce'), { target: { value: 'CA' } });
    fireEvent.click(row.getByLabelText('Working with vulnerable adults (adult barred list)'));
    // a dependent setting shows when its choice asks for it
    expect(row.queryByLabelText('Other purpose')).toBeNull();
    fireEvent.click(row.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/api/lms/definitions/7/requirements/dbs-enhanced/');
    expect(patch?.body).toEqual({
      config: {
        workforce: 'CA',
        paper_cert: false,
        volunteer: false,
        adult_barred_list: true,
        child_barred_list: false,
        working_at_home_address: false,
      },
    });
    expect(await row.findByText('Settings saved.')).toBeTruthy();
  });

  it("checks spec point 3's rules before sending: 'Other' needs its purpose", async () => {
    const calls = mockFetch(answer);
    renderAt('/definitions/7/requirements');
    const row = within(await screen.findByTestId('check-settings-dbs-enhanced'));
    fireEvent.click(row.getByRole('button', { name: 'Edit settings: Enhanced DBS check' }));
    fireEvent.change(row.getByLabelText('Purpose'), { target: { value: 'other' } });
    expect(row.getByLabelText('Other purpose')).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: 'Save settings' }));
    expect((await row.findAllByText('Required')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it("shows the server's error on its setting", async () => {
    mockFetch((call) =>
      call.method === 'PATCH'
        ? {
            status: 400,
            body: { 'config.workforce': ['This setting does not apply to the Driver data check.'] },
          }
        : answer(call),
    );
    renderAt('/definitions/7/requirements');
    const row = within(await screen.findByTestId('check-settings-dbs-enhanced'));
    fireEvent.click(row.getByRole('button', { name: 'Edit settings: Enhanced DBS check' }));
    fireEvent.click(row.getByRole('button', { name: 'Save settings' }));
    expect(
      (await row.findAllByText(/This setting does not apply to the Driver data check./)).length,
    ).toBeGreaterThan(0);
  });

  it('read only without the change permission: the settings in words, no editor', async () => {
    mockFetch((call) =>
      call.url.startsWith('/api/lms/definitions/7/') && call.method === 'GET'
        ? {
            status: 200,
            body: {
              ...DEFINITION,
              requirements: [
                {
                  activity_type: 'dbs-enhanced',
                  activity_name: 'Enhanced DBS check',
                  config: { workforce: 'CA', child_barred_list: true },
                },
              ],
            },
          }
        : answer(call),
    );
    renderAt('/definitions/7/requirements', ['lms_definitions.view_definition']);
    const row = within(await screen.findByTestId('check-settings-dbs-enhanced'));
    expect(
      row.getByText('Workforce: Child and Adult · Working with children (children barred list)'),
    ).toBeTruthy();
    expect(row.queryByRole('button', { name: /Edit settings/ })).toBeNull();
  });
});
