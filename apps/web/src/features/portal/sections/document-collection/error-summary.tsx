import '@mantine/core/styles/List.css';
import { Alert, Anchor, List } from '@mantine/core';
import { useEffect, useRef } from 'react';

export interface SummaryError {
  /** The id of the field the message belongs to (the link's target). */
  field: string;
  message: string;
  /** The summary's words when they differ from the field's (the field's message by default). */
  summary?: string;
}

/**
 * GOV.UK-style error summary: 'There is a problem' with a link to each field in error; it takes
 * the focus when it appears so screen readers announce it.
 */
export function ErrorSummary({
  errors,
  focusKey,
}: {
  errors: readonly SummaryError[];
  focusKey: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again on every failed submit
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
  }, [focusKey]);
  if (errors.length === 0) return null;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="red"
      variant="outline"
      title="There is a problem"
      role="alert"
      styles={{
        root: { borderWidth: 3, borderColor: 'var(--mantine-color-red-8)' },
        title: { color: 'var(--mantine-color-red-9)', fontSize: 'var(--mantine-font-size-lg)' },
      }}
    >
      <List spacing={4}>
        {errors.map((e) => (
          <List.Item key={`${e.field}:${e.message}`}>
            <Anchor
              href={`#${e.field}`}
              c="red.9"
              fw={600}
              onClick={(ev) => {
                const el = document.getElementById(e.field);
                if (el) {
                  ev.preventDefault();
                  el.focus();
                  el.scrollIntoView({ block: 'center' });
                }
              }}
            >
              {e.summary ?? e.message}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
