import { isoDate, minusMonths } from '@kestrel/domain';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetAddressLookup } from '../../../api/case-addresses';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { portalPayload, renderPortal } from '../portal-test-kit';

afterEach(() => {
  notifications.clean();
  forgetAddressLookup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const today = isoDate(new Date());
const address = (over: Record<string, unknown>) => ({
  id: 1,
  case: 7,
  country: 'GBR',
  country_dbs: '',
  line_one: '1 High Street',
  line_one_dbs: '',
  line_two: '',
  line_two_dbs: '',
  town: 'Leeds',
  town_dbs: '',
  postcode: 'LS1 1AA',
  from_date: minusMonths(today, 24),
  to_date: null,
  current: true,
  metadata: null,
  source: 'manual',
  ...over,
});

function server(initial: ReturnType<typeof address>[]) {
  let rows = initial;
  let last: string | null = 'basic-details';
  const calls = mockFetch((call: Call) => {
    if (call.url.startsWith('/api/s/case-portal/7/')) {
      if (call.method === 'PATCH') {
        last = (call.body as { portal_last_completed_section: string })
          .portal_last_completed_section;
      }
      return { status: 200, body: portalPayload({ last }) };
    }
    if (call.url.startsWith('/api/s/case-addresses/lookup-source/')) {
      return { status: 200, body: { source: 'fake' } };
    }
    if (call.url.startsWith('/api/s/case-addresses/os-fake-lookup/')) {
      return {
        status: 200,
        body: {
          results: [
            {
              DPA: {
                BUILDING_NUMBER: '5',
                THOROUGHFARE_NAME: 'Mill Lane',
                POST_TOWN: 'York',
                POSTCODE: 'YO1 7HH',
              },
            },
          ],
        },
      };
    }
    if (call.url === '/api/s/case-addresses/' && call.method === 'POST') {
      const created = { ...address({}), ...(call.body as object), id: rows.length + 1 };
      rows = [...rows, created];
      return { status: 201, body: created };
    }
    if (call.url.startsWith('/api/s/case-addresses/')) {
      return {
        status: 200,
        body: { count: rows.length, next: null, previous: null, results: rows },
      };
    }
    return { status: 404, body: {} };
  });
  return { calls, last: () => last };
}

describe('Address history section', () => {
  it('shows the gap, will not continue until it is filled, and fills it through the lookup', async () => {
    const s = server([address({})]);
    renderPortal(7, 'address-history');
    const gap = await screen.findByTestId('address-gap', {}, { timeout: 5000 });
    expect(within(gap).getByText('Missing address information')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByTestId('error-summary', {}, { timeout: 5000 });
    expect(summary.textContent).toContain('Your addresses must cover the last 5 years');
    expect(s.last()).toBe('basic-details');

    fireEvent.click(within(gap).getByRole('button', { name: 'Add an address for this time' }));
    const editor = await screen.findByTestId('address-editor');
    fireEvent.change(within(editor).getByRole('textbox', { name: 'Find an address by postcode' }), {
      target: { value: 'YO1 7HH' },
    });
    fireEvent.click(within(editor).getByRole('button', { name: 'Find address' }));
    const choose = await within(editor).findByRole('combobox', { name: 'Choose the address' });
    fireEvent.change(choose, { target: { value: '0' } });
    await waitFor(() =>
      expect(
        (within(editor).getByRole('textbox', { name: /^Town/ }) as HTMLInputElement).value,
      ).toMatch(/york/i),
    );
    fireEvent.click(within(editor).getByRole('button', { name: 'Save address' }));
    await waitFor(
      () =>
        expect(s.calls.some((c) => c.url === '/api/s/case-addresses/' && c.method === 'POST')).toBe(
          true,
        ),
      {
        timeout: 5000,
      },
    );
    // Without live keys the lookup never asks for a live token first.
    expect(s.calls.some((c) => c.url.includes('os-datahub-token'))).toBe(false);
    const post = s.calls.find((c) => c.url === '/api/s/case-addresses/' && c.method === 'POST');
    expect(post?.body).toMatchObject({
      case: 7,
      line_one: '5 Mill Lane',
      source: 'OS',
      from_date: minusMonths(today, 60),
    });
    await waitFor(() => expect(screen.queryByTestId('address-gap')).toBeNull(), { timeout: 5000 });
    expect(s.last()).toBe('address-history/2');

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { level: 1, name: 'Check your answers' }, { timeout: 5000 });
    expect(s.last()).toBe('address-history');
  });

  it('opens the editor at once when there is no address yet', async () => {
    server([]);
    renderPortal(7, 'address-history');
    expect(await screen.findByTestId('address-editor', {}, { timeout: 5000 })).toBeTruthy();
    expect(
      (screen.getByRole('checkbox', { name: 'I live here now' }) as HTMLInputElement).checked,
    ).toBe(true);
  });
});
