import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { OpsCaseElsewhere } from './ops-case-elsewhere';

describe('a case operations staff opened outside its customer', () => {
  it("names the case's customer, never its number while the name is on its way", async () => {
    let release: () => void = () => undefined;
    const customerAnswered = new Promise<void>((r) => {
      release = r;
    });
    mockFetch(async (call) => {
      if (call.url.includes('/api/ops/cases/68/'))
        return { status: 200, body: { id: 68, customer: 1 } };
      if (call.url.includes('/api/ops/customers/1/')) {
        await customerAnswered;
        return { status: 200, body: { id: 1, name: 'Acme Care Ltd' } };
      }
      return { status: 404, body: { detail: 'Not found.' } };
    });
    renderWithProviders(
      <MemoryRouter>
        <OpsCaseElsewhere id="68" notFound={<p>Not found</p>} />
      </MemoryRouter>,
    );
    // the case is known, its customer's name not yet: nothing half-said
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('ops-case-elsewhere')).toBeNull();
    release();
    const offer = await screen.findByTestId('ops-case-elsewhere');
    expect(offer).toHaveTextContent(
      'Case #68 belongs to Acme Care Ltd, not to the workspace you are in.',
    );
    expect(screen.getByRole('button', { name: 'Open the case as Acme Care Ltd' })).toBeEnabled();
  });

  it('falls back to the customer number when the name cannot be read', async () => {
    mockFetch(async (call) => {
      if (call.url.includes('/api/ops/cases/68/'))
        return { status: 200, body: { id: 68, customer: 1 } };
      return { status: 500, body: { detail: 'A server error occurred.' } };
    });
    renderWithProviders(
      <MemoryRouter>
        <OpsCaseElsewhere id="68" notFound={<p>Not found</p>} />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId('ops-case-elsewhere')).toHaveTextContent(
      'Case #68 belongs to customer 1',
    );
  });
});
