import {
  formatDate,
  formatTestDuration,
  isKnowledgeTestCompleted,
  KNOWLEDGE_TEST_TEXTS,
  readResultData,
} from '@kestrel/domain';
import { Anchor, Badge, Button, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { day, Facts, Note, PanelFrame, PanelSection } from './panel-kit';
import type { ResultPanelProps } from './registry';

const points = (scored: number | null | undefined, available: number | null | undefined) =>
  scored === null || scored === undefined
    ? ''
    : available
      ? `${scored} / ${available}`
      : String(scored);
const percent = (p: number | null | undefined) => (p === null || p === undefined ? '' : `${p}%`);

const CATEGORIES_CAPTION = 'Knowledge test categories';

/**
 * The categories table (name, percentage, points), narrow enough for a 360 px phone: tight
 * cells, the name wrapping, the figures kept whole. Narrower still, it scrolls sideways in a
 * focusable, named region (WCAG 2.1.1, axe's scrollable-region-focusable), as the other tables.
 */
function CategoriesTable({ rows }: { rows: readonly [string, string, string][] }) {
  return (
    <Table.ScrollContainer
      minWidth={240}
      scrollAreaProps={{
        viewportProps: { tabIndex: 0, role: 'region', 'aria-label': CATEGORIES_CAPTION },
      }}
    >
      <Table striped withTableBorder horizontalSpacing={6} aria-label={CATEGORIES_CAPTION}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col" ta="right">
              Percentage
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Points
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([name, pct, pts], i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two categories may share a name
            <Table.Tr key={i}>
              <Table.Td>{name || '—'}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {pct || '—'}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {pts || '—'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Knowledge test (spec point 2): overall pass or fail, the test's percentage, the completion
 * time, the intro info, the categories table and a link to the full results; 'This knowledge
 * test has not yet been completed' until then (the subject gets the link to take it). The
 * subject's view leaves out who recorded a paper result and the link to the full results.
 */
export function KnowledgeTestPanel({ activity, audience }: ResultPanelProps) {
  const d = readResultData('knowledge-test', activity.result_data);
  const open = activity.state !== 'ca-complete' && activity.state !== 'ca-cancelled';
  if (!isKnowledgeTestCompleted(d)) {
    return (
      <PanelFrame testId="knowledge-test-panel">
        <Note testId="knowledge-test-not-completed">{KNOWLEDGE_TEST_TEXTS.notCompleted}</Note>
        {d.invited_at && <Note>Invited on {formatDate(d.invited_at)}</Note>}
        {audience === 'subject' && open && d.test_url && (
          <Button
            component="a"
            href={d.test_url}
            target="_blank"
            rel="noopener noreferrer"
            w={{ base: '100%', xs: 'auto' }}
          >
            {KNOWLEDGE_TEST_TEXTS.takeTest}
          </Button>
        )}
      </PanelFrame>
    );
  }
  const facts: [string, ReactNode][] = [
    [
      'Result',
      <Badge key="r" color={d.passed ? 'green' : 'red'} variant="light">
        {d.passed ? KNOWLEDGE_TEST_TEXTS.pass : KNOWLEDGE_TEST_TEXTS.fail}
      </Badge>,
    ],
    ['Percentage', percent(d.percentage)],
    ['Completion time', formatTestDuration(d.duration_seconds)],
    ['Completed on', day(d.completed_at)],
  ];
  if (d.method === 'paper') {
    facts.push(['Method', KNOWLEDGE_TEST_TEXTS.paper]);
    if (audience !== 'subject') facts.push(['Recorded by', d.recorded_by ?? '']);
  } else {
    facts.push(['Points', points(d.points_scored, d.points_available)]);
  }
  return (
    <PanelFrame testId="knowledge-test-panel">
      <Facts items={facts} />
      {d.intro && (
        <PanelSection title="Intro info" testId="knowledge-test-intro">
          <Facts
            items={[
              ['First name', d.intro.first_name],
              ['Last name', d.intro.last_name],
              ['Email', d.intro.email],
              ['Extra info 1', d.intro.extra_info],
              ['Extra info 2', d.intro.extra_info2],
            ]}
          />
        </PanelSection>
      )}
      {d.categories && d.categories.length > 0 && (
        <PanelSection title="Categories">
          <CategoriesTable
            rows={d.categories.map((c) => [
              c.name,
              percent(c.percentage),
              points(c.points_scored, c.points_available),
            ])}
          />
        </PanelSection>
      )}
      {audience !== 'subject' && d.results_url && (
        <Anchor href={d.results_url} target="_blank" rel="noopener noreferrer" size="sm">
          {KNOWLEDGE_TEST_TEXTS.fullResults}
        </Anchor>
      )}
    </PanelFrame>
  );
}
