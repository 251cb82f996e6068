import { notifications } from '@mantine/notifications';
import { fireEvent, screen, within } from '@testing-library/react';
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
    expect(await screen.findByTestId('portal-done', {}, { timeout: 5000 })).toBeTruthy();
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
