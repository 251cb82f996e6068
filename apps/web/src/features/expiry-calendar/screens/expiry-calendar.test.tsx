import type { ExpiryCalendarOut } from '@kestrel/domain';
import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import ExpiryCalendar from './expiry-calendar';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

/** A DVLA mandate renewed today: it ends in 3 years, past the widest window of old (366 days). */
const RENEWED = {
  kind: 'dvla-consent',
  kind_label: 'Driving licence check consent (DVLA mandate)',
  subject_id: 4,
  subject_name: 'Ada Example',
  subject_email: 'ada@example.test',
  case_id: 12,
  reference: 'Consent 31',
  expires_on: '2029-11-29',
  days_left: 1096,
} as const;

function answer(call: Call) {
  const url = new URL(call.url, 'http://x');
  const days = Number(url.searchParams.get('days'));
  const until = days === 1096 ? '2029-11-29' : '2027-02-27';
  const body: ExpiryCalendarOut =
    days >= 1096
      ? { days, until, count: 1, results: [RENEWED] }
      : { days, until, count: 0, results: [] };
  return { status: 200, body };
}

function render(path: string) {
  const p = product({ session_permissions: ['subjects.view_subject'] });
  setSession({ ...productIn(p), bootstrap: boot(p) });
  const router = createMemoryRouter([{ path: '/expiry-calendar', Component: ExpiryCalendar }], {
    initialEntries: [path],
  });
  renderWithProviders(<RouterProvider router={router} />);
}

describe('the expiry calendar', () => {
  it('offers windows up to ten years', async () => {
    const calls = mockFetch(answer);
    render('/expiry-calendar');
    expect(await screen.findByText('Nothing expires in this window.')).toBeTruthy();
    const window = screen.getByLabelText('Window', { selector: 'input' }) as HTMLInputElement;
    expect(window.value).toBe('Next 90 days');
    fireEvent.click(screen.getByRole('option', { name: 'Next 10 years', hidden: true }));
    expect(await screen.findByText('Consent 31')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('days=3653'))).toBe(true);
  });

  it('shows a renewed DVLA mandate 3 years on in its 3-year window, and where the window ends', async () => {
    const calls = mockFetch(answer);
    render('/expiry-calendar?days=1096');
    expect(await screen.findByText('Consent 31')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('1 item up to 29th Nov 2029');
    expect((screen.getByLabelText('Window', { selector: 'input' }) as HTMLInputElement).value).toBe(
      'Next 3 years',
    );
    expect(calls.some((c) => c.url.includes('days=1096'))).toBe(true);
  });
});
