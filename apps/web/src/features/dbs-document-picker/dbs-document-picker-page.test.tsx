import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import DbsDocumentPickerPage from './dbs-document-picker-page';

describe('DBS document picker', () => {
  it('tells which route the ticked documents satisfy and what is missing', async () => {
    renderWithProviders(<DbsDocumentPickerPage />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Which identity documents can I use?' }),
    ).toBeInTheDocument();
    expect(screen.getByText('These documents are not enough yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Passport' }));
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Bank or building society statement' }),
    );
    const route1 = screen.getByTestId('route-1');
    expect(within(route1).getByText('1 more document from Group 1, 2a or 2b')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: /^Utility bill/ }));
    expect(screen.getByText('These documents are enough for Route 1.')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('route-1')).getByText('Route 1: your documents are enough'),
    ).toBeInTheDocument();
  });

  it('has one route for a basic check', async () => {
    renderWithProviders(<DbsDocumentPickerPage />);
    await userEvent.click(screen.getByRole('radio', { name: 'Basic check' }));
    expect(screen.queryByTestId('route-2')).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Passport' }));
    await userEvent.click(screen.getByRole('checkbox', { name: /^Utility bill/ }));
    expect(screen.getByText('These documents are enough for a basic check.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear my choices' }));
    expect(screen.getByText('These documents are not enough yet.')).toBeInTheDocument();
  });
});
