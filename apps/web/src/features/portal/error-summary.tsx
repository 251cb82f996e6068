import { Anchor, Box, List, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

/** One line of the error summary: the field it links to (id, name or data-field) and its text. */
export interface SummaryError {
  field?: string;
  message: string;
}

/** Focuses a field by id, then by name, then the first input inside `[data-field]`. */
export function focusField(field: string): void {
  const escaped = CSS.escape(field);
  const target =
    document.getElementById(field) ??
    document.querySelector<HTMLElement>(`[name="${escaped}"]`) ??
    document.querySelector<HTMLElement>(
      `[data-field="${escaped}"] input, [data-field="${escaped}"] select, [data-field="${escaped}"] textarea, [data-field="${escaped}"] button`,
    );
  if (!target) return;
  target.focus();
  target.scrollIntoView?.({ block: 'center' });
}

/**
 * The GOV.UK-style error summary at the top of a section: 'There is a problem' and one link per
 * error, each focusing its field. It takes the focus whenever `focusKey` changes (each attempt to
 * continue), so keyboard and screen reader users land on it.
 */
export function ErrorSummary({ errors, focusKey }: { errors: SummaryError[]; focusKey: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = errors.length > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again on every attempt
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [focusKey, shown]);
  if (!shown) return null;
  return (
    <Box
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="error-summary-title"
      data-testid="error-summary"
      p="md"
      style={{
        border: '4px solid var(--mantine-color-red-7)',
        borderRadius: 'var(--mantine-radius-md)',
        outlineOffset: 2,
      }}
    >
      <Text component="h2" id="error-summary-title" fw={700} size="lg" m={0}>
        There is a problem
      </Text>
      <List spacing={0} listStyleType="none" p={0} m={0}>
        {errors.map((e) => (
          <List.Item key={`${e.field ?? ''}:${e.message}`}>
            {e.field ? (
              <Anchor
                href={`#${e.field}`}
                c="var(--mantine-color-red-8)"
                fw={600}
                td="underline"
                style={{ display: 'inline-flex', alignItems: 'center', minHeight: 44 }}
                onClick={(event) => {
                  event.preventDefault();
                  if (e.field) focusField(e.field);
                }}
              >
                {e.message}
              </Anchor>
            ) : (
              <Text c="var(--mantine-color-red-8)" fw={600}>
                {e.message}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Box>
  );
}
