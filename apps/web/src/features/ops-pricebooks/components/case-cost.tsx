import { PRICE_LEVEL_LABELS } from '@kestrel/domain';
import { Group, Stack, Text } from '@mantine/core';
import { useQuote } from '../api';

/** "Cost: £xx.xx" of a case of the process, with a line per check (the case-add screen). */
export function CaseCost({ processId }: { processId: string }) {
  const quote = useQuote(processId);
  if (processId === '' || !quote.data) return null;
  const q = quote.data;
  return (
    <Stack gap={4} mt="md" aria-label="Cost" role="group">
      <Text fw={650}>Cost: {q.total_display}</Text>
      {q.lines.map((l) => (
        <Group key={`${l.activity_type}/${l.level ?? ''}`} justify="space-between" maw={420}>
          <Text size="sm">
            {l.name}
            {l.level ? ` (${PRICE_LEVEL_LABELS[l.level]})` : ''}
          </Text>
          <Text size="sm">{l.amount_display}</Text>
        </Group>
      ))}
      {q.pricebook_id === null && (
        <Text size="sm" c="dimmed">
          No pricebook is active: prices are not set.
        </Text>
      )}
    </Stack>
  );
}
