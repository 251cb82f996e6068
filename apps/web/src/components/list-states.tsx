import { Button, Pagination, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a list says when it has no rows and nothing filters it (a first visit). */
export interface EmptyState {
  title: string;
  text: string;
  /** The next step, e.g. an 'Add case' button (shown only to those who may take it). */
  action?: ReactNode;
}

export type ListStateKind = 'failed' | 'no-match' | 'empty';

/** Which state a list with no rows is in, or null when it has rows (or is still loading). */
export function listStateOf(
  query: { isPending: boolean; data?: { count: number; failed?: true } },
  filtered: boolean,
): ListStateKind | null {
  if (query.isPending || !query.data) return null;
  if (query.data.failed) return 'failed';
  if (query.data.count > 0) return null;
  return filtered ? 'no-match' : 'empty';
}

/**
 * The three ways a list can have no rows, each saying what is true and what to do next: the
 * load failed (try again), the search or filters match nothing (clear them), or there is
 * nothing yet (the first step).
 */
export function ListState({
  kind,
  plural,
  empty,
  onRetry,
  onClear,
}: {
  kind: ListStateKind;
  plural: string;
  empty?: EmptyState;
  onRetry: () => void;
  onClear: () => void;
}) {
  const body =
    kind === 'failed'
      ? {
          title: `The ${plural} could not be loaded`,
          text: 'Something went wrong on our side or with the connection. Your data is safe.',
          action: (
            <Button variant="default" size="sm" onClick={onRetry}>
              Try again
            </Button>
          ),
        }
      : kind === 'no-match'
        ? {
            title: `No ${plural} match your search or filters`,
            text: 'Try other words, or clear the filters to see everything.',
            action: (
              <Button variant="default" size="sm" onClick={onClear}>
                Clear filters
              </Button>
            ),
          }
        : (empty ?? { title: `No ${plural} yet`, text: `${cap(plural)} appear here when added.` });
  return (
    <Stack
      align="center"
      gap={6}
      p="xl"
      ta="center"
      data-testid="list-state"
      data-state={kind}
      role={kind === 'failed' ? 'alert' : 'status'}
    >
      <Text fw={600}>{body.title}</Text>
      <Text size="sm" c="dimmed" maw={440}>
        {body.text}
      </Text>
      {body.action && <div style={{ marginTop: 6 }}>{body.action}</div>}
    </Stack>
  );
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Page buttons with accessible names ('Page 2', 'Next page'), in a labelled navigation. */
export function ListPagination({
  total,
  value,
  onChange,
  label,
}: {
  total: number;
  value: number;
  onChange: (page: number) => void;
  label: string;
}) {
  if (total <= 1) return null;
  return (
    <nav aria-label={label}>
      <Pagination
        total={total}
        value={value}
        onChange={onChange}
        size="sm"
        siblings={1}
        getItemProps={(page) => ({
          'aria-label': `Page ${page}`,
          'aria-current': page === value ? 'page' : undefined,
        })}
        getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })}
      />
    </nav>
  );
}

const CONTROL_NAMES = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;
