import type { PricebookOut } from '@kestrel/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import OpsPricebookAdd from './ops-pricebook-add';
import OpsPricebookEdit from './ops-pricebook-edit';
import OpsPricebooks from './ops-pricebooks';

const DESCRIPTION = "Cases are not charged to the customer's card; payments are invoiced";

function pricebook(over: Partial<PricebookOut>): PricebookOut {
  return {
    id: 7,
    customer_id: 3,
    name: 'Standard 2026',
    valid_from: '2026-01-01',
    valid_to: null,
    active: true,
    created_at: '2026-01-01T09:00:00.000Z',
    created_by_name: 'Olive Ops',
    prices: [],
    invoiced: false,
    ...over,
  };
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/ops/customers/:id/pricebooks', Component: OpsPricebooks },
      { path: '/ops/customers/:id/pricebooks/add', Component: OpsPricebookAdd },
      { path: '/ops/customers/:id/pricebooks/:pbId/edit', Component: OpsPricebookEdit },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('ops pricebooks: invoiced', () => {
  it('marks an invoiced pricebook in the list with a badge, and only that one', async () => {
    mockFetch(() => ({
      status: 200,
      body: {
        results: [
          pricebook({ id: 8, name: 'Invoiced 2027', invoiced: true }),
          pricebook({ id: 7, name: 'Card 2026', invoiced: false }),
        ],
      },
    }));
    renderAt('/ops/customers/3/pricebooks');
    const invoicedRow = (await screen.findByRole('link', { name: 'Invoiced 2027' })).closest('tr');
    const cardRow = screen.getByRole('link', { name: 'Card 2026' }).closest('tr');
    if (!invoicedRow || !cardRow) throw new Error('rows not found');
    expect(within(invoicedRow).getByText('Invoiced')).toBeInTheDocument();
    expect(within(cardRow).queryByText('Invoiced')).toBeNull();
    expect(within(cardRow).getByText('Card per case')).toBeInTheDocument();
  });

  it('adds a pricebook with invoiced set when the box is ticked', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: pricebook({ invoiced: true }) }
        : { status: 200, body: { results: [] } },
    );
    const router = renderAt('/ops/customers/3/pricebooks/add');
    const user = userEvent.setup();
    const box = await screen.findByRole('checkbox', { name: 'Invoiced' });
    expect(box).not.toBeChecked();
    expect(screen.getByText(DESCRIPTION)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Invoiced 2027');
    await user.type(screen.getByLabelText(/Valid from/), '2027-01-01');
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ops/customers/3/pricebooks'));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/ops/customers/3/pricebooks/');
    expect(post?.body).toMatchObject({ name: 'Invoiced 2027', invoiced: true });
  });

  it('shows an invoiced pricebook ticked on edit and can switch it off', async () => {
    const calls = mockFetch((call) =>
      call.method === 'PATCH'
        ? { status: 200, body: pricebook({ invoiced: false }) }
        : call.url.endsWith('/7/')
          ? { status: 200, body: pricebook({ invoiced: true }) }
          : { status: 200, body: { results: [] } },
    );
    renderAt('/ops/customers/3/pricebooks/7/edit');
    const user = userEvent.setup();
    const box = await screen.findByRole('checkbox', { name: 'Invoiced' });
    expect(box).toBeChecked();
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/api/ops/customers/3/pricebooks/7/');
    expect(patch?.body).toMatchObject({ invoiced: false });
  });
});

describe('ops pricebooks: a customer page', () => {
  it("shows the list in the customer's frame: its name, the ops session button, its tabs", async () => {
    mockFetch((call) =>
      call.url.startsWith('/api/ops/customers/3/pricebooks/')
        ? { status: 200, body: { results: [pricebook({ name: 'Card 2026' })] } }
        : {
            status: 200,
            body: { id: 3, name: 'Acme Care Ltd', is_active: true, demo_mode: false },
          },
    );
    renderAt('/ops/customers/3/pricebooks');
    await screen.findByRole('heading', { level: 1, name: 'Acme Care Ltd' });
    expect(screen.getByRole('button', { name: 'Start ops session' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Customer pages' });
    expect(within(tabs).getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'href',
      '/ops/customers/3',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Pricebooks' })).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Card 2026' });
  });

  const acme = { id: 3, name: 'Acme Care Ltd', is_active: true, demo_mode: false };

  it.each([
    ['add', '/ops/customers/3/pricebooks/add', 'Add pricebook'],
    ['edit', '/ops/customers/3/pricebooks/7/edit', 'Edit pricebook'],
  ])(
    "shows the %s form in the customer's frame, the Pricebooks tab current",
    async (_, path, title) => {
      mockFetch((call) =>
        call.url === '/api/ops/customers/3/pricebooks/7/'
          ? { status: 200, body: pricebook({ name: 'Card 2026' }) }
          : call.url.startsWith('/api/ops/customers/3/pricebooks/')
            ? { status: 200, body: { results: [] } }
            : { status: 200, body: acme },
      );
      renderAt(path);
      await screen.findByRole('heading', { level: 1, name: 'Acme Care Ltd' });
      expect(screen.getByRole('button', { name: 'Start ops session' })).toBeInTheDocument();
      const tabs = screen.getByRole('navigation', { name: 'Customer pages' });
      expect(within(tabs).getByRole('link', { name: 'Pricebooks' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      // the form's own title under the customer's name, one h1 on the page
      expect(await screen.findByRole('heading', { level: 2, name: title })).toBeInTheDocument();
      expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
      expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    },
  );
});
