import { Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { DateSelector } from '../../../components/date-selector';
import { RecordViewsTable } from './record-views-table';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The audit log's 'Who saw what' (issue 34): every view of a criminal-record result, a driving
 * record or a document in the organisation, filtered by person, case, kind of item and date.
 */
export function RecordViews({ people }: { people: { value: string; label: string }[] }) {
  const [actor, setActor] = useState<string | null>(null);
  const [caseId, setCaseId] = useState('');
  const [after, setAfter] = useState<string | null>(null);
  const [before, setBefore] = useState<string | null>(null);
  const trimmed = caseId.trim().replace(/^#/, '');
  const params = {
    actor: actor ?? undefined,
    // the people listed are staff: a subject's login may carry the same number
    actor_type: actor ? 'ProductUser' : undefined,
    case: /^\d+$/.test(trimmed) ? trimmed : undefined,
    created_after: after ?? undefined,
    created_before: before ?? undefined,
  };
  return (
    <Stack gap="sm" data-testid="record-views">
      <Stack gap={4}>
        <Title order={2}>Who saw what</Title>
        <Text c="dimmed">
          Views of criminal-record results, driving records and documents, one line per person, item
          and day.
        </Text>
      </Stack>
      <Paper withBorder radius="lg" p="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <Select
            label="Person"
            placeholder="Anyone"
            data={people}
            value={actor}
            onChange={setActor}
            clearable
            searchable
          />
          <TextInput
            label="Case"
            size="sm"
            placeholder="e.g. 42"
            value={caseId}
            onChange={(e) => setCaseId(e.currentTarget.value)}
          />
          <DateSelector
            label="Seen from"
            required={false}
            value={after}
            max={today()}
            onChange={setAfter}
          />
          <DateSelector
            label="Seen to"
            required={false}
            value={before}
            max={today()}
            onChange={setBefore}
          />
        </SimpleGrid>
      </Paper>
      <RecordViewsTable
        params={params}
        externalFilters={{
          active: Boolean(actor || params.case || after || before),
          clear: () => {
            setActor(null);
            setCaseId('');
            setAfter(null);
            setBefore(null);
          },
        }}
      />
    </Stack>
  );
}
