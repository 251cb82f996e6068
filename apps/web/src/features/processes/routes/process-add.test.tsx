import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import ProcessAdd from './process-add';

const activityTypes = [
  { id: 1, code: 'basic-details', name: 'Basic details', kind: 'basic-details' },
];

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

function renderAdd(demoMode: boolean) {
  const p = product({
    session_permissions: ['processes.view_process', 'processes.add_process'],
    customer: { id: 1, name: 'Acme', demo_mode: demoMode },
  });
  const session = productIn(p);
  setSession({ ...session, bootstrap: { ...boot(p), activityTypes } });
  const router = createMemoryRouter(
    [
      { path: '/processes/add', Component: ProcessAdd },
      { path: '/processes/:id', element: <p>process page</p> },
    ],
    { initialEntries: ['/processes/add'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

describe('add process', () => {
  it('does not offer checks to an administrator whose requirements are read-only', async () => {
    const calls = mockFetch(() => ({
      status: 201,
      body: { id: 5, name: 'Drivers', requirements: [] },
    }));
    renderAdd(false);
    expect(await screen.findByText('Operations choose the checks')).toBeTruthy();
    expect(screen.queryByLabelText('Basic details')).toBeNull();
    expect(screen.getByRole('link', { name: 'ask support' }).getAttribute('href')).toBe('/support');
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Drivers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add process' }));
    await screen.findByText('process page');
    const sent = calls.find((c) => c.method === 'POST');
    expect(sent?.body).toMatchObject({ name: 'Drivers', requirements: [] });
  });

  it('offers the checks in a demo organisation and asks for one', async () => {
    const calls = mockFetch(() => ({ status: 201, body: { id: 5 } }));
    renderAdd(true);
    expect(await screen.findByLabelText('Basic details')).toBeTruthy();
    expect(screen.queryByText('Operations choose the checks')).toBeNull();
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Drivers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add process' }));
    await waitFor(() => expect(screen.getByText('Choose at least one check')).toBeTruthy());
    expect(calls).toHaveLength(0);
  });
});
