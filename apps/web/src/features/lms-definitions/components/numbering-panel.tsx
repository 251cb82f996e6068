import {
  DEFAULT_LICENCE_NUMBER_FORMAT,
  formatLicenceNumber,
  type LicenceSubGroupOut,
} from '@kestrel/domain';
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client';
import type { Definition } from '../api';

function Fact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={600} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * How the definition's licences are numbered: its code (the sub-group's) and the council's
 * number format, with the number the next licence of this year would have the form of.
 */
export function NumberingPanel({ definition }: { definition: Definition }) {
  const subGroup = useQuery({
    queryKey: ['lms-sub-group', definition.sub_group],
    queryFn: async () => {
      const r = await request<LicenceSubGroupOut>(
        'GET',
        `/api/lms/licence-sub-groups/${definition.sub_group}/`,
      );
      return r.ok ? r.data : null;
    },
  });
  const code = subGroup.data?.code ?? '';
  const example = formatLicenceNumber(DEFAULT_LICENCE_NUMBER_FORMAT, {
    year: new Date().getUTCFullYear(),
    code: code || 'CODE',
    sequence: 1,
  });
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      maw={880}
      component="section"
      aria-label="Licence numbers"
    >
      <Stack gap="sm">
        <Text fw={650}>Licence numbers</Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <Fact
            label="Code"
            value={subGroup.isPending ? '…' : code || 'None'}
            testId="definition-code"
          />
          <Fact
            label="Number format"
            value={DEFAULT_LICENCE_NUMBER_FORMAT}
            testId="number-format"
          />
          <Fact label="For example" value={example} testId="number-example" />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          The code is the sub-group's ({definition.sub_group_name}); the format is the council's,
          and every number is unique.
        </Text>
      </Stack>
    </Paper>
  );
}
