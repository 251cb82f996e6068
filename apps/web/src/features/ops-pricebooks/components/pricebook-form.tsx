import {
  ACTIVITY_KIND_CODES,
  ACTIVITY_KINDS,
  type ActivityKindCode,
  type CheckLevel,
  PRICE_LEVEL_LABELS,
  type PricebookOut,
  parsePounds,
  penceToPounds,
  priceLevelsOf,
} from '@kestrel/domain';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { href } from '../../../config/paths';
import { savePricebook } from '../api';

const ROWS = ACTIVITY_KIND_CODES.flatMap((code) =>
  priceLevelsOf(code).map((level) => ({ code, level, key: `${code}/${level ?? ''}` })),
);
function kindName(code: ActivityKindCode): string {
  const kind: { name?: string } = ACTIVITY_KINDS[code];
  return kind.name ?? code;
}
const rowLabel = (code: ActivityKindCode, level: CheckLevel | null) =>
  level ? `${kindName(code)}, ${PRICE_LEVEL_LABELS[level].toLowerCase()}` : kindName(code);

function messageOf(data: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(data);
  return [...new Set(parts)].join(' ') || 'The pricebook could not be saved.';
}

/**
 * Add or edit a pricebook: name, validity dates, whether the customer is invoiced (its cases are
 * not charged to its card), a price per kind and level in pounds.
 */
export function PricebookForm({
  customerId,
  existing,
}: {
  customerId: string;
  existing: PricebookOut | null;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState(existing?.name ?? '');
  const [from, setFrom] = useState(existing?.valid_from ?? '');
  const [to, setTo] = useState(existing?.valid_to ?? '');
  const [invoiced, setInvoiced] = useState(existing?.invoiced ?? false);
  const [prices, setPrices] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      (existing?.prices ?? []).map((p) => [
        `${p.activity_type}/${p.level ?? ''}`,
        penceToPounds(p.amount_pence),
      ]),
    ),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const invalid = ROWS.filter((r) => (prices[r.key] ?? '').trim() !== '').filter(
    (r) => parsePounds(prices[r.key] ?? '') === null,
  );

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (invalid.length > 0) return;
    setBusy(true);
    setError(null);
    const body = {
      name,
      valid_from: from,
      valid_to: to.trim() === '' ? null : to,
      invoiced,
      prices: ROWS.flatMap((r) => {
        const pence = parsePounds(prices[r.key] ?? '');
        return pence === null
          ? []
          : [{ activity_type: r.code, level: r.level, amount_pence: pence }];
      }),
    };
    const res = await savePricebook(customerId, existing ? String(existing.id) : null, body);
    setBusy(false);
    if (!res.ok) {
      setError(messageOf(res.data));
      return;
    }
    await client.invalidateQueries({ queryKey: ['ops-pricebooks', customerId] });
    navigate(href('ops:pricebooks', { id: customerId }));
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={820}>
        {/* under the customer's name (the frame's h1) */}
        <Title order={2}>{existing ? 'Edit pricebook' : 'Add pricebook'}</Title>
        {error && (
          <Alert color="red" title="Not saved">
            {error}
          </Alert>
        )}
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack gap="md">
            <TextInput
              label="Name"
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            {/* side by side from a small tablet up; one above the other on a phone */}
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <TextInput
                label="Valid from"
                type="date"
                required
                value={from}
                onChange={(e) => setFrom(e.currentTarget.value)}
              />
              <TextInput
                label="Valid to"
                description="Leave empty for no end"
                type="date"
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
              />
            </SimpleGrid>
            <Checkbox
              label="Invoiced"
              description="Cases are not charged to the customer's card; payments are invoiced"
              checked={invoiced}
              onChange={(e) => setInvoiced(e.currentTarget.checked)}
            />
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Title order={3} size="h4" mb="sm">
            Prices (£)
          </Title>
          <Table>
            <Table.Tbody>
              {ROWS.map((r) => (
                <Table.Tr key={r.key}>
                  <Table.Td>{rowLabel(r.code, r.level)}</Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Price of ${rowLabel(r.code, r.level)}`}
                      leftSection="£"
                      inputMode="decimal"
                      placeholder="Not set"
                      value={prices[r.key] ?? ''}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setPrices((p) => ({ ...p, [r.key]: v }));
                      }}
                      error={invalid.includes(r) ? 'Enter pounds, e.g. 12.50' : undefined}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Group>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
