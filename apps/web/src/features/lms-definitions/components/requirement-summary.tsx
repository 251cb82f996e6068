import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Definition } from '../api';
import { checkName } from './requirement-fields';

function Items({ title, items, empty }: { title: string; items: string[]; empty: string }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={4} component="ul" m={0} pl="md">
          {items.map((item) => (
            <Text component="li" size="sm" key={item}>
              {item}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** What a licence asks of an applicant: its checks, documents and declarations. */
export function RequirementSummary({ definition: d }: { definition: Definition }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Title order={2} size="h4" mb="md">
        Requirements
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <Items
          title="Checks"
          items={d.requirements.map((r) => checkName(r.activity_type, r.activity_name))}
          empty="No checks."
        />
        <Items title="Documents" items={d.documents} empty="No documents asked for." />
        <Items title="Declarations" items={d.declarations} empty="No declarations." />
      </SimpleGrid>
    </Paper>
  );
}
