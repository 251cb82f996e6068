import { formatDate } from '@kestrel/domain';
import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import classes from '../../../components/list-table.module.css';
import { href } from '../../../config/paths';
import { CustomerFrame } from '../../ops-customers';
import { usePricebooks } from '../api';

/** A badge when `on`, else the dimmed words of the other case. */
function Marked({
  on,
  color,
  label,
  off,
}: {
  on: boolean;
  color: string;
  label: string;
  off: string;
}) {
  return on ? (
    <Badge variant="light" color={color}>
      {label}
    </Badge>
  ) : (
    <Text size="sm" c="dimmed">
      {off}
    </Text>
  );
}

/**
 * A customer's pricebooks (/ops/customers/{id}/pricebooks), the active one marked: one of the
 * customer's pages, in its frame.
 */
export default function OpsPricebooks() {
  const { id = '' } = useParams();
  const list = usePricebooks(id);
  // a customer page: the customer's frame (its tabs, the ops session button) around the list
  return (
    <CustomerFrame>
      {() => (
        <Stack gap="lg">
          <Group justify="space-between">
            <Title order={2}>Pricebooks</Title>
            <Button component={Link} to={href('ops:pricebook-add', { id })}>
              Add pricebook
            </Button>
          </Group>
          {list.isError && <Text c="red">The pricebooks could not be loaded.</Text>}
          {list.data && list.data.length === 0 && <Text>No pricebooks yet.</Text>}
          {list.data && list.data.length > 0 && (
            <Table striped className={classes.table} aria-label="Pricebooks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Valid from</Table.Th>
                  <Table.Th>Valid to</Table.Th>
                  <Table.Th>Prices</Table.Th>
                  <Table.Th>Payment</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((pb) => (
                  <Table.Tr key={pb.id}>
                    <Table.Td data-label="Name">
                      <Anchor component={Link} to={href('ops:pricebook-edit', { id, pbId: pb.id })}>
                        {pb.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td data-label="Valid from">{formatDate(pb.valid_from)}</Table.Td>
                    <Table.Td data-label="Valid to">
                      {pb.valid_to ? formatDate(pb.valid_to) : 'Open-ended'}
                    </Table.Td>
                    <Table.Td data-label="Prices">{pb.prices.length}</Table.Td>
                    <Table.Td data-label="Payment">
                      <Marked on={pb.invoiced} color="grape" label="Invoiced" off="Card per case" />
                    </Table.Td>
                    <Table.Td data-label="Status">
                      <Marked on={pb.active} color="green" label="Active" off="Not active" />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </CustomerFrame>
  );
}
