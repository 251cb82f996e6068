import { APPLICATION_STATE_LABELS, APPLICATION_STATES } from '@kestrel/domain';
import { Drawer, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Icon } from '../../../components/icons';
import { ResourceTable } from '../../../components/resource-table';
import { type Application, applications } from '../api';
import { ApplicationPanel } from './application-panel';
import { ApplicationStateBadge, ChecksProgress } from './application-state';

/**
 * A portal's applications: applicant, state, checks' progress; the state filter and the one
 * opened (in a drawer) are kept in the URL (?state=, ?application=).
 */
export function ApplicationsSection({ portalId }: { portalId: number }) {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const state = params.get('state');
  const q = params.get('q') ?? '';
  const [search, setSearch] = useState(q);
  const pushSearch = useDebouncedCallback((v: string) => set('q', v.trim() || null), 300);
  const opened = Number(params.get('application'));
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key !== 'application' },
    );
  const openHref = (a: Application) => {
    const next = new URLSearchParams(params);
    next.set('application', String(a.id));
    return `${pathname}?${next.toString()}`;
  };
  return (
    <Stack gap="sm">
      <Stack gap={4}>
        <Title order={2} size="h3">
          Applications
        </Title>
        <Text size="sm" c="dimmed">
          Open one to see its checks and the tax check, and to decide.
        </Text>
      </Stack>
      <Group gap="sm">
        <TextInput
          aria-label="Search applications"
          placeholder="Name, email or reference"
          leftSection={<Icon name="search" size={16} />}
          size="sm"
          w={{ base: '100%', sm: 280 }}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            pushSearch(e.currentTarget.value);
          }}
        />
        <Select
          aria-label="State"
          placeholder="Any state"
          clearable
          size="sm"
          data={APPLICATION_STATES.map((s) => ({ value: s, label: APPLICATION_STATE_LABELS[s] }))}
          value={state}
          onChange={(v) => set('state', v)}
        />
      </Group>
      <ResourceTable<Application>
        resource={applications}
        searchable={false}
        params={{ portal: portalId, state: state ?? undefined, q: q || undefined }}
        externalFilters={{
          active: Boolean(state || q),
          clear: () => {
            setSearch('');
            setParams(
              (p) => {
                const next = new URLSearchParams(p);
                next.delete('state');
                next.delete('q');
                return next;
              },
              { replace: true },
            );
          },
        }}
        rowHref={openHref}
        empty={{
          title: 'No applications yet',
          text: 'Applications made on this portal show here once the applicant has applied.',
        }}
        columns={[
          { key: 'applicant', header: 'Applicant', render: (a) => a.applicant.name },
          { key: 'reference', header: 'Reference', render: (a) => a.reference },
          {
            key: 'state',
            header: 'State',
            render: (a) => <ApplicationStateBadge state={a.state} label={a.state_label} />,
          },
          {
            key: 'checks',
            header: 'Checks',
            render: (a) => <ChecksProgress done={a.checks_done} total={a.checks_total} />,
          },
          { key: 'tax', header: 'Tax check', render: (a) => a.tax_check.status_label },
        ]}
      />
      <Drawer
        opened={opened > 0}
        onClose={() => set('application', null)}
        position="right"
        size="lg"
        title="Application"
        closeButtonProps={{ 'aria-label': 'Close the application' }}
      >
        {opened > 0 && <ApplicationPanel id={opened} />}
      </Drawer>
    </Stack>
  );
}
