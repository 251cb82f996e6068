import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled value on a detail page; empty shows a dash. Long values (emails) wrap anywhere. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text component="div" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Stack>
  );
}
