import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '../lib/date-time';

/** A refund as both payment details carry it (the customer's and operations'). */
export interface RefundRow {
  id: number;
  amount_display: string;
  status: 'pending' | 'succeeded' | 'failed';
  created_at: string;
  /** Operations only: who made the refund (a 'By' column when `withBy`). */
  created_by_name?: string;
}

/**
 * The refunds of one payment: amount, status (as `statusOf` words it), who made it (operations
 * only) and when; 'No refunds.' when there are none.
 */
export function RefundsTable<R extends RefundRow>({
  refunds,
  statusOf,
  withBy = false,
}: {
  refunds: readonly R[];
  statusOf: (refund: R) => ReactNode;
  withBy?: boolean;
}) {
  if (refunds.length === 0) return <Text size="sm">No refunds.</Text>;
  // long names (By) break anywhere so the table fits a 360 px phone
  return (
    <Table style={{ overflowWrap: 'anywhere' }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Amount</Table.Th>
          <Table.Th>Status</Table.Th>
          {withBy && <Table.Th>By</Table.Th>}
          <Table.Th>When</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {refunds.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{r.amount_display}</Table.Td>
            <Table.Td>{statusOf(r)}</Table.Td>
            {withBy && <Table.Td>{r.created_by_name}</Table.Td>}
            <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
