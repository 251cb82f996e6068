import { formatDate } from '@kestrel/domain';
import { Box, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Fact } from '../../components/fact';

/** Our own words shared by the panels (the spec has none for these). */
export const PANEL_TEXTS = {
  /** A cancelled check waits for nothing: said instead of its waiting message. */
  cancelled: 'This check was cancelled.',
} as const;

export const isCancelled = (a: { state: string }) => a.state === 'ca-cancelled';

/** Who reads a result panel: the customer's staff, the subject (restricted) or operations. */
export type Audience = 'customer' | 'subject' | 'ops';

/** An activity as a panel needs it (the subject's views carry no processing data or notes). */
export interface PanelActivity {
  id: number;
  state: string;
  activity_type: string;
  config?: Record<string, unknown> | null;
  result_data?: Record<string, unknown> | null;
  processing_data?: Record<string, unknown> | null;
  notes?: string;
  case?: { id: number } | number;
}

export const caseIdOf = (a: PanelActivity): number | null =>
  typeof a.case === 'number' ? a.case : (a.case?.id ?? null);

/** 'do MMM y', or nothing for a missing date (the Fact shows a dash). */
export const day = (value: string | null | undefined) => formatDate(value);
export const yesNo = (value: boolean | null | undefined) =>
  value === true ? 'Yes' : value === false ? 'No' : '';

/** A titled block of a panel. */
export function PanelSection({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * The facts of a section, two columns from small screens; those named in `wide` (a long text)
 * take the whole row.
 */
export function Facts({
  items,
  wide = [],
}: {
  items: readonly (readonly [string, ReactNode])[];
  wide?: readonly string[];
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      {items.map(([label, value]) =>
        wide.includes(label) ? (
          <Box key={label} style={{ gridColumn: '1 / -1' }}>
            <Fact label={label}>{value}</Fact>
          </Box>
        ) : (
          <Fact key={label} label={label}>
            {value}
          </Fact>
        ),
      )}
    </SimpleGrid>
  );
}

/** A fallback or status line, in words. */
export function Note({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Text size="sm" c="dimmed" data-testid={testId}>
      {children}
    </Text>
  );
}

/** A small table that scrolls sideways on phones. */
export function SmallTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: readonly string[];
  rows: readonly (readonly ReactNode[])[];
}) {
  return (
    // A table wider than a phone scrolls sideways: its viewport takes the keyboard's focus and has
    // a name, so it can be scrolled without a mouse (WCAG 2.1.1, axe's scrollable-region-focusable).
    // A few columns fit a phone's card whole (about 290 px wide at 360 px); more scroll.
    <Table.ScrollContainer
      minWidth={head.length * 90}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': caption } }}
    >
      <Table striped withTableBorder aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h} scope="col">
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((cells, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
            <Table.Tr key={i}>
              {cells.map((c, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells in column order
                <Table.Td key={j}>{c || '—'}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The panel frame (inside the activity's card). */
export function PanelFrame({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <Stack gap="md" mt="sm" data-testid={testId}>
      {children}
    </Stack>
  );
}
