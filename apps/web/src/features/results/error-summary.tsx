import { Alert, Anchor, List } from '@mantine/core';
import { useEffect, useRef } from 'react';

export interface SummaryError {
  /** The id of the field the error belongs to (the link's target). */
  field: string;
  message: string;
  label: string;
}

/**
 * The errors of a form summarised at its top (GOV.UK style): each links to its field, and the
 * summary takes the focus when it appears so a screen reader announces it.
 */
export function ErrorSummary({ errors, attempt }: { errors: SummaryError[]; attempt: number }) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again on each failed submit
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
  }, [attempt]);
  if (errors.length === 0) return null;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="red"
      title="There is a problem"
      role="alert"
      data-testid="error-summary"
    >
      <List size="sm">
        {errors.map((e) => (
          <List.Item key={e.field}>
            <Anchor
              href={`#${e.field}`}
              c="red.9"
              onClick={(event) => {
                event.preventDefault();
                document.getElementById(e.field)?.focus();
              }}
            >
              {e.label}: {e.message}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Field errors from a Zod result's issues: the first message per field. */
export function issuesByField(
  issues: readonly { path: PropertyKey[]; message: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = i.path.map(String).join('.');
    if (key && !(key in out)) out[key] = i.message;
  }
  return out;
}
