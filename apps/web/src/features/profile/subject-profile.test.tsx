import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { subject, subjectIn } from '../../test/sessions';
import CompleteProfilePage from './complete-profile-page';
import SubjectProfilePage from './subject-profile-page';

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

afterEach(() => {
  vi.unstubAllGlobals();
  resetSession();
});

describe('subject profile', () => {
  it('shows the date of birth read-only once it cannot change', async () => {
    setSession(subjectIn(subject({ can_change_dob: false, dob: '1990-01-01' })));
    show('/s/profile', '/s/profile', SubjectProfilePage);
    const locked = await screen.findByTestId('dob-locked');
    expect(locked.textContent).toContain('1st Jan 1990');
    expect(screen.queryByLabelText('Date of birth: year')).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByText(/You agreed to the terms of use on 1st Jan 2026/)).toBeTruthy();
  });

  it('edits the date of birth while it can change, and saves the changed fields', async () => {
    setSession(subjectIn(subject({ can_change_dob: true, dob: '1990-01-01' })));
    const calls = mockFetch((c) => ({
      status: 200,
      body: { ...subject({ can_change_dob: true }), ...(c.body as object) },
    }));
    show('/s/profile', '/s/profile', SubjectProfilePage);
    const year = await screen.findByLabelText('Date of birth: year');
    fireEvent.change(year, { target: { value: '1991' } });
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '07911 123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Successfully updated profile');
    // the profile's own calls ('Your data' reads the erasure requests besides)
    const saves = calls.filter((c) => c.url.startsWith('/api/user/'));
    expect(saves).toHaveLength(1);
    expect(saves[0]?.method).toBe('PUT');
    expect(saves[0]?.body).toMatchObject({ dob: '1991-01-01', phone_number: '+447911123456' });
  });

  it('lists the errors at the top, each linked to its field', async () => {
    setSession(subjectIn(subject()));
    const calls = mockFetch(() => ({ status: 200, body: subject() }));
    show('/s/profile', '/s/profile', SubjectProfilePage);
    const first = await screen.findByLabelText(/^First name/);
    fireEvent.change(first, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const summary = await screen.findByTestId('error-summary');
    const link = within(summary).getByRole('link', { name: 'First name: Required' });
    expect(link.getAttribute('href')).toBe('#profile-first_name');
    fireEvent.click(link);
    expect(document.activeElement).toBe(first);
    expect(calls.filter((c) => c.url.startsWith('/api/user/'))).toHaveLength(0);
  });
});

describe('complete profile', () => {
  it('summarises what is missing, then saves and follows next', async () => {
    setSession(subjectIn(subject({ dob: null, terms_agreed_at: null })));
    const calls = mockFetch(() => ({ status: 200, body: subject() }));
    const router = show(
      '/s/complete-profile?next=%2Fs%2Fcases',
      '/s/complete-profile',
      CompleteProfilePage,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    const summary = await screen.findByTestId('error-summary');
    expect(
      within(summary)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['#complete-dob', '#complete-terms']);
    fireEvent.click(within(summary).getByRole('link', { name: 'Date of birth: Required' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Date of birth: year'));
    fireEvent.change(screen.getByLabelText('Date of birth: year'), { target: { value: '1990' } });
    fireEvent.change(screen.getByLabelText('Date of birth: month'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Date of birth: day'), { target: { value: '17' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/s/cases'));
    expect(calls[0]?.body).toEqual({ dob: '1990-05-17', terms_agreed: true });
  });
});
