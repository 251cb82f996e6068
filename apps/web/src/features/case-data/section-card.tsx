import { Badge, Group, Paper, Skeleton, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { SectionError } from './section-parts';

/** One of the six sections: its title, and its loading or error state (point 8: no message). */
export function SectionCard({
  title,
  loading,
  failed,
  onRetry,
  badge,
  children,
}: {
  title: string;
  loading: boolean;
  /** The section's error state: a failed load (nothing to show) or a failed save. */
  failed: boolean | 'load';
  onRetry: () => void;
  badge?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper
      component="section"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      aria-label={title}
      data-testid="case-data-section"
      data-error={failed ? 'true' : undefined}
      style={failed ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4">
            {title}
          </Title>
          {badge}
        </Group>
        {failed && <SectionError label={title} onRetry={onRetry} />}
        {loading ? <Skeleton h={160} radius="md" /> : failed === 'load' ? null : children}
      </Stack>
    </Paper>
  );
}

export function NewBadge() {
  return (
    <Badge variant="light" color="gray">
      Not added yet
    </Badge>
  );
}
