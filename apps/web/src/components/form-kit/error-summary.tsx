import '@mantine/core/styles/List.css';
import { Anchor, Box, List, Text } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';

/** One line of the error summary. */
export interface SummaryError {
  /**
   * What the line links to: an element id, a field's `name`, or a `[data-field]` wrapper (its
   * first input takes the focus). Without it the line is plain text (a form-wide error).
   */
  field?: string;
  message: string;
  /** Said before the message ('Reference: Required') where the message alone is unclear. */
  label?: string;
  /** The summary's words when they differ from the field's own message. */
  summary?: string;
}

/**
 * Focuses a field by id, then by name, then the first input inside an element with that id or
 * `data-field` (a date selector's year, a group of radios), and scrolls it into view.
 */
export function focusField(field: string): void {
  const escaped = CSS.escape(field);
  const byId = document.getElementById(field);
  const direct =
    byId &&
    (byId instanceof HTMLInputElement ||
      byId instanceof HTMLSelectElement ||
      byId instanceof HTMLTextAreaElement ||
      byId instanceof HTMLButtonElement)
      ? byId
      : null;
  const inputs = 'input, select, textarea, button';
  const target =
    direct ??
    byId?.querySelector<HTMLElement>(inputs) ??
    byId ??
    document.querySelector<HTMLElement>(`[name="${escaped}"]`) ??
    document.querySelector<HTMLElement>(
      inputs
        .split(', ')
        .map((tag) => `[data-field="${escaped}"] ${tag}`)
        .join(', '),
    );
  if (!target) return;
  target.focus();
  target.scrollIntoView?.({ block: 'center' });
}

/** A summary line's words: the summary's own, else 'Label: message', else the message. */
export function summaryText(e: SummaryError): string {
  if (e.summary) return e.summary;
  return e.label ? `${e.label}: ${e.message}` : e.message;
}

/**
 * The summary's red: red-9 on light (4.5:1 and more on white and on the gray-0 of a panel, where
 * red-8 gave 4.28), a lighter red on dark.
 */
const ERROR_RED = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';

/**
 * The one error summary (GOV.UK style): 'There is a problem' and one link per error, each
 * focusing its field. It takes the focus when it appears and again whenever `focusKey` changes
 * (each failed submit), so keyboard and screen reader users land on it.
 */
export function ErrorSummary({
  errors,
  focusKey = 0,
  title = 'There is a problem',
}: {
  errors: readonly SummaryError[];
  focusKey?: number;
  title?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
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
      aria-labelledby={titleId}
      data-testid="error-summary"
      p="md"
      style={{
        border: '4px solid var(--mantine-color-red-7)',
        borderRadius: 'var(--mantine-radius-md)',
        outlineOffset: 2,
      }}
    >
      <Text component="h2" id={titleId} fw={700} size="lg" m={0}>
        {title}
      </Text>
      <List spacing={0} listStyleType="none" p={0} m={0}>
        {errors.map((e) => (
          <List.Item key={`${e.field ?? ''}:${e.message}`}>
            {e.field ? (
              <Anchor
                href={`#${e.field}`}
                c={ERROR_RED}
                fw={600}
                td="underline"
                style={{ display: 'inline-flex', alignItems: 'center', minHeight: 44 }}
                onClick={(event) => {
                  event.preventDefault();
                  if (e.field) focusField(e.field);
                }}
              >
                {summaryText(e)}
              </Anchor>
            ) : (
              <Text c={ERROR_RED} fw={600}>
                {summaryText(e)}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Box>
  );
}
