import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import SubjectArchive from './subject-archive';

const subject = (open_cases: number) => ({
  id: 3,
  first_name: 'Sam',
  middlename: '',
  last_name: 'Green',
  email: 'sam@example.test',
  dob: '1990-04-12',
  phone_number: '',
  has_account: false,
  is_archived: false,
  archived_at: null,
  created_at: '2026-11-01T09:00:00.000Z',
  open_cases,
});

afterEach(() => vi.unstubAllGlobals());

function renderArchive(open: number) {
  mockFetch(() => ({ status: 200, body: subject(open) }));
  const router = createMemoryRouter(
    [{ path: '/subjects/:id/archive', Component: SubjectArchive }],
    {
      initialEntries: ['/subjects/3/archive'],
    },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

describe('archive subject', () => {
  it('disables the button and says why while the subject has open cases', async () => {
    renderArchive(2);
    expect(await screen.findByText('This subject cannot be archived yet')).toBeTruthy();
    expect(screen.getByText(/This subject has 2 open cases\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Archive subject' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('enables the button when no case is open', async () => {
    renderArchive(0);
    const button = await screen.findByRole('button', { name: 'Archive subject' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(screen.queryByText('This subject cannot be archived yet')).toBeNull();
  });
});
