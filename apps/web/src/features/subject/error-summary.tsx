import '@mantine/core/styles/List.css';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

export interface SummaryError {
  /** The id of the field's element (or of a wrapper around a group of inputs). */
  field: string;
  message: string;
}

/** Focuses the field, or the first input inside a wrapper (a date selector's year). */
export function focusField(id: string): void {
  const el = document.getElementById(id);
  if (!el) return;
  const target =
    el instanceof HTMLInputElement || el instanceof HTMLSelectElement
      ? el
      : el.querySelector<HTMLElement>('input, select, textarea, button');
  (target ?? el).focus();
  el.scrollIntoView?.({ block: 'center' });
}

/**
 * GOV.UK style: a form's errors listed at the top, each a link to its field. It takes focus when
 * it appears (after a failed submit) so a screen reader announces it.
 */
export function ErrorSummary({
  errors,
  title = 'There is a problem',
}: {
  errors: readonly SummaryError[];
  title?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = errors.length > 0;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  if (!shown) return null;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="red"
      variant="light"
      role="alert"
      aria-labelledby="error-summary-title"
      data-testid="error-summary"
      title={
        <Text id="error-summary-title" fw={700} component="span">
          {title}
        </Text>
      }
    >
      <List spacing={4} size="sm">
        {errors.map((e) => (
          <List.Item key={`${e.field}-${e.message}`}>
            <Anchor
              href={`#${e.field}`}
              c="red.9"
              fw={600}
              onClick={(event) => {
                event.preventDefault();
                focusField(e.field);
              }}
            >
              {e.message}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
