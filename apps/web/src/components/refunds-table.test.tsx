import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { type RefundRow, RefundsTable } from './refunds-table';

const refund = {
  id: 1,
  amount_display: '£5.00',
  status: 'failed' as const,
  created_at: '2026-11-20T14:35:00.000Z',
  created_by_name: 'Olive Ops',
  failure_message: 'Card expired',
};

describe('RefundsTable', () => {
  it('says there are none', () => {
    renderWithProviders(<RefundsTable<RefundRow> refunds={[]} statusOf={(r) => r.status} />);
    expect(screen.getByText('No refunds.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows amount, status in the caller’s words and when; no By column unless asked', () => {
    renderWithProviders(<RefundsTable refunds={[refund]} statusOf={() => 'Failed'} />);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Amount', 'Status', 'When']);
    const row = screen.getAllByRole('row')[1];
    if (!row) throw new Error('no row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['£5.00', 'Failed', '20th Nov 2026 14:35']);
  });

  it('adds who made it with withBy', () => {
    renderWithProviders(
      <RefundsTable
        refunds={[refund]}
        withBy
        statusOf={(r) => `${r.status} (${r.failure_message})`}
      />,
    );
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Amount', 'Status', 'By', 'When']);
    expect(screen.getByText('failed (Card expired)')).toBeInTheDocument();
    expect(screen.getByText('Olive Ops')).toBeInTheDocument();
  });
});
