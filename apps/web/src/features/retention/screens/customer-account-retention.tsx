import {
  accessLogMonths,
  INSPECTORS,
  type Inspector,
  otherRecordsRetention,
  RETENTION_MAX_MONTHS,
  RETENTION_MIN_MONTHS,
  type RetentionRuleCode,
  type RetentionSettingsOut,
} from '@kestrel/domain';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { actionErrorMessage, actionSuccessMessage } from '../../../api/messages';
import { href } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { useRights } from '../../../lib/rights';
import { retentionSettingsOptions, useSaveRetentionSettings } from '../api';

const BASIS: Record<string, string> = {
  decision: 'after the case’s decision',
  completion: 'after the case completes',
  'employment-end': 'after the employment ends',
  closure: 'after the case is cancelled or archived',
};

function RulesForm({
  settings,
  canChange,
}: {
  settings: RetentionSettingsOut;
  canChange: boolean;
}) {
  const save = useSaveRetentionSettings();
  const [inspector, setInspector] = useState<Inspector | null>(settings.inspector);
  const [inspection, setInspection] = useState(settings.next_inspection_date ?? '');
  const [months, setMonths] = useState<Record<string, number>>(
    Object.fromEntries(settings.rules.map((r) => [r.code, r.months])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    const res = await save.mutateAsync({
      inspector,
      next_inspection_date: inspector === null || inspection === '' ? null : inspection,
      rules: settings.rules.map((r) => ({
        code: r.code as RetentionRuleCode,
        months: months[r.code] ?? r.months,
      })),
    });
    if (res.ok) {
      setErrors({});
      notify.success(actionSuccessMessage('update', 'retention rules'));
    } else {
      const e: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.data))
        e[k] = Array.isArray(v) ? String(v[0]) : String(v);
      setErrors(e);
      notify.error(actionErrorMessage('update', 'retention rules'));
    }
  };
  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section">
        <Stack gap="md">
          <Title order={2} size="h3">
            Rules
          </Title>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Data</Table.Th>
                  <Table.Th>Kept for (months)</Table.Th>
                  <Table.Th>What stays</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {settings.rules.map((r) => (
                  <Table.Tr key={r.code} data-testid={`rule-${r.code}`}>
                    <Table.Td>
                      <Text fw={600}>{r.name}</Text>
                      <Text size="sm" c="dimmed">
                        {BASIS[r.basis]}
                        {r.until_inspection ? '; or until the next inspection' : ''}
                        {r.months !== r.default_months ? ` (default ${r.default_months})` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <NumberInput
                        aria-label={`${r.name}: months`}
                        min={RETENTION_MIN_MONTHS}
                        max={RETENTION_MAX_MONTHS}
                        w={110}
                        disabled={!canChange}
                        value={months[r.code] ?? r.months}
                        onChange={(v) => setMonths((m) => ({ ...m, [r.code]: Number(v) || 0 }))}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{r.keeps}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {errors.rules && <Alert color="red">{errors.rules}</Alert>}
        </Stack>
      </Paper>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section">
        <Stack gap="md">
          <Title order={2} size="h3">
            Inspection
          </Title>
          <Text size="sm" c="dimmed">
            An organisation inspected by the CQC, Ofsted or CSSIW may keep criminal-record
            information until its next inspection.
          </Text>
          <Group align="flex-start">
            <Select
              label="Inspected by"
              data={INSPECTORS.map((i) => ({ value: i, label: i }))}
              value={inspector}
              clearable
              placeholder="Not inspected"
              disabled={!canChange}
              onChange={(v) => setInspector((v as Inspector | null) ?? null)}
            />
            <TextInput
              type="date"
              label="Next inspection"
              value={inspection}
              disabled={!canChange || inspector === null}
              error={errors.next_inspection_date}
              onChange={(e) => setInspection(e.currentTarget.value)}
            />
          </Group>
        </Stack>
      </Paper>
      {canChange && (
        <Group>
          <Button h={44} loading={save.isPending} onClick={() => void submit()}>
            Save rules
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The records kept for a fixed period whatever the rules (the domain's constants), read-only; the
 * access log's period is this customer's: at least 24 months, or its longer criminal-record
 * periods, as saved.
 */
function OtherRecords({ settings }: { settings: RetentionSettingsOut }) {
  const months = accessLogMonths({
    inspector: settings.inspector,
    nextInspectionDate: settings.next_inspection_date,
    months: Object.fromEntries(settings.rules.map((r) => [r.code, r.months])),
  });
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby="other-records"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id="other-records">
          Other records
        </Title>
        <Text size="sm" c="dimmed">
          These are kept for a fixed time, whatever the rules above, then removed automatically.
        </Text>
        {/* no scroll container (nothing in it to focus): two columns that wrap on a phone */}
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Record</Table.Th>
              <Table.Th>Kept for</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {otherRecordsRetention(months).map((r) => (
              <Table.Tr key={r.code} data-testid={`other-${r.code}`}>
                <Table.Td>
                  <Text fw={600}>{r.name}</Text>
                  {r.keeps && (
                    <Text size="sm" c="dimmed">
                      What stays: {r.keeps}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{r.kept}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

/** /customer-account/retention: the organisation's retention rules (issue 34). */
export default function CustomerAccountRetention() {
  const rights = useRights();
  const q = useQuery(retentionSettingsOptions());
  const canChange = rights.can('customers.change_customer');
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>Data retention</Title>
        <Text c="dimmed">
          How long your checks’ data are kept before they are redacted automatically.
        </Text>
        {rights.can('cases.view_case') && (
          <Anchor component={Link} to={href('customer-account-retention-due')}>
            What will be redacted in the next 30 days
          </Anchor>
        )}
      </Stack>
      {q.isError && <Alert color="red">Error getting the retention rules</Alert>}
      {q.isPending && <Skeleton h={320} />}
      {q.data && <RulesForm settings={q.data} canChange={canChange} />}
      {q.data && <OtherRecords settings={q.data} />}
    </Stack>
  );
}
