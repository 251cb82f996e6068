import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { portalPayload, renderPortal } from '../portal-test-kit';

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const details = (over: Record<string, unknown> = {}) => ({
  case: 7,
  gender: 'female',
  title: 'Ms',
  forename: 'Alice',
  forename_dbs: '',
  middlename: '',
  middlename_dbs: '',
  surname: 'Smith',
  surname_dbs: '',
  email: 'alice@example.test',
  email_dbs: '',
  dob: '1990-05-04',
  phone_number: '020 7123 4567',
  nin: '',
  nationality: 'GBR',
  online_idv: false,
  locked_fields: [],
  ...over,
});

function server(record = details()) {
  let last: string | null = 'welcome';
  let stored = record;
  const calls = mockFetch((call: Call) => {
    if (call.url.startsWith('/api/s/case-portal/7/')) {
      if (call.method === 'PATCH') {
        last = (call.body as { portal_last_completed_section: string })
          .portal_last_completed_section;
      }
      return { status: 200, body: portalPayload({ last }) };
    }
    if (call.url.startsWith('/api/s/case-basic-details/7/')) {
      if (call.method === 'PUT') {
        stored = { ...stored, ...(call.body as object) };
        return { status: 200, body: stored };
      }
      return { status: 200, body: stored };
    }
    return { status: 404, body: {} };
  });
  return { calls, last: () => last };
}

const field = (label: RegExp | string) =>
  screen.getByRole('textbox', {
    name: typeof label === 'string' ? label : new RegExp(`${label.source}(?! \\(for DBS\\))`),
  });

describe('Basic details section', () => {
  it('loads the details, saves them on Continue and opens Address history', async () => {
    const s = server();
    renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Forename/) as HTMLInputElement).value).toBe('Alice'), {
      timeout: 5000,
    });
    fireEvent.change(field(/^Surname/), { target: { value: 'Jones' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { level: 1, name: 'Address history' }, { timeout: 5000 });
    const put = s.calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/s/case-basic-details/7/');
    expect(put?.body).toMatchObject({ surname: 'Jones', forename: 'Alice', nationality: 'GBR' });
    expect(put?.body).not.toHaveProperty('email');
    expect(s.last()).toBe('basic-details');
  });

  it('summarises the errors at the top, linked to the fields, and does not move on', async () => {
    const s = server(details({ forename: '', phone_number: '123' }));
    renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Surname/) as HTMLInputElement).value).toBe('Smith'), {
      timeout: 5000,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByTestId('error-summary');
    expect(within(summary).getByText('There is a problem')).toBeTruthy();
    const link = within(summary).getByRole('link', { name: 'Forename: Required' });
    expect(
      within(summary).getByRole('link', { name: 'Phone number: Invalid number' }),
    ).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(summary));
    fireEvent.click(link);
    expect(document.activeElement).toBe(field(/^Forename/));
    expect(s.calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(s.last()).toBe('welcome');
  });

  it('checks on Continue, not when a field is left: pressing Continue after clearing a field is not lost to a message moving the button', async () => {
    // Leaving the blanked Forename for the Continue button (its mousedown) must not insert
    // 'Required' above the button: the button would move before the mouseup and the press
    // would be lost (no summary). The message and the summary come with Continue.
    const s = server();
    renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Forename/) as HTMLInputElement).value).toBe('Alice'), {
      timeout: 5000,
    });
    const forename = field(/^Forename/);
    fireEvent.focus(forename);
    fireEvent.change(forename, { target: { value: '' } });
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    fireEvent.blur(forename, { relatedTarget: continueButton });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(forename.getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.queryByText('Required')).toBeNull();
    fireEvent.click(continueButton);
    const summary = await screen.findByTestId('error-summary');
    expect(within(summary).getByRole('link', { name: 'Forename: Required' })).toBeTruthy();
    await waitFor(() => expect(forename.getAttribute('aria-invalid')).toBe('true'));
    expect(s.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('says under the phone field what a valid number looks like, also beside the error', async () => {
    server(details({ phone_number: '07911 654321' }));
    renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Surname/) as HTMLInputElement).value).toBe('Smith'), {
      timeout: 5000,
    });
    const phone = screen.getByRole('textbox', { name: /^Phone number/ });
    expect(phone.getAttribute('type')).toBe('tel');
    const hint =
      'A UK mobile or landline, such as 07911 123456 or 020 7123 4567, or an international number starting with +';
    const described = () =>
      (phone.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    expect(described()).toContain(hint);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByTestId('error-summary');
    expect(
      within(summary).getByRole('link', { name: 'Phone number: Invalid number' }),
    ).toBeTruthy();
    expect(described()).toContain(hint);
    expect(described()).toContain('Invalid number');
  });

  it('asks for a (for DBS) value when a name has accents', async () => {
    server();
    renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Forename/) as HTMLInputElement).value).toBe('Alice'), {
      timeout: 5000,
    });
    fireEvent.change(field(/^Forename/), { target: { value: 'Zoë' } });
    expect(await screen.findByRole('textbox', { name: /Forename \(for DBS\)/ })).toBeTruthy();
    expect(screen.getByTestId('dbs-warning')).toBeTruthy();
  });

  it('locks the fields the online identity check confirmed', async () => {
    server(details({ locked_fields: ['forename', 'surname', 'dob'] }));
    renderPortal(7, 'basic-details');
    expect(await screen.findByTestId('locked-notice', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(field(/^Forename/).hasAttribute('readonly')).toBe(true));
    expect(field(/^Surname/).hasAttribute('readonly')).toBe(true);
    expect(field(/^Middle name/).hasAttribute('readonly')).toBe(false);
    expect(field('Date of birth').hasAttribute('readonly')).toBe(true);
  });

  it('a locked name the DBS cannot take still asks for its editable (for DBS) value', async () => {
    server(details({ forename: 'Zoë', locked_fields: ['forename', 'surname', 'dob'] }));
    renderPortal(7, 'basic-details');
    await waitFor(() => expect(field(/^Forename/).hasAttribute('readonly')).toBe(true), {
      timeout: 5000,
    });
    const alt = await screen.findByRole('textbox', { name: /Forename \(for DBS\)/ });
    expect(alt.hasAttribute('readonly')).toBe(false);
  });

  it('keeps what was typed when the person goes Back with an invalid form', async () => {
    const s = server();
    const first = renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Forename/) as HTMLInputElement).value).toBe('Alice'), {
      timeout: 5000,
    });
    fireEvent.change(field(/^Surname/), { target: { value: 'Smith-' } });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { level: 1, name: 'Welcome' }, { timeout: 5000 });
    expect(s.calls.some((c) => c.method === 'PUT')).toBe(false);
    first.unmount();
    renderPortal(7, 'basic-details');
    await waitFor(() => expect((field(/^Surname/) as HTMLInputElement).value).toBe('Smith-'), {
      timeout: 5000,
    });
  });

  it('shows the details as text, without inputs, once submitted', async () => {
    mockFetch((call: Call) => {
      if (call.url.startsWith('/api/s/case-portal/7/')) {
        return { status: 200, body: portalPayload({ last: 'review', submitted: true }) };
      }
      if (call.url.startsWith('/api/s/case-basic-details/7/')) {
        return { status: 200, body: details() };
      }
      return { status: 404, body: {} };
    });
    renderPortal(7, 'basic-details');
    expect(await screen.findByText('Ms Alice Smith', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});
