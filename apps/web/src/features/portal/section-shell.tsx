/**
 * SectionShell: the frame every case portal section renders its content in.
 *
 * Props (all optional):
 * - `title`          the page's h1; the section's label (PORTAL_SECTION_LABELS) by default.
 * - `intro`          a short text under the h1.
 * - `errors`         `SummaryError[]` ({ field?, message }): the GOV.UK-style summary at the top,
 *                    shown once the person has pressed Continue; each line links to (focuses) its
 *                    field, found by element id, then `name`, then `[data-field="..."]`.
 *                    Use `formErrors(form.formState.errors, LABELS)` for a react-hook-form form.
 * - `onContinue`     called when Continue is pressed (or Enter in the form): validate, save, then
 *                    call `complete()` from the section's props. Without it Continue calls
 *                    `complete()` at once. The button shows the saving state while it runs.
 * - `onBack`         called before going back (save what was typed: nothing may be lost); Back
 *                    then opens the previous section. Hidden on the first section.
 * - `saving`         the section is saving by itself (shows 'Saving…', disables Continue).
 * - `continueLabel`  'Continue' by default (Review uses 'Submit').
 * - `form`           true by default: the content is inside a <form noValidate> so Enter continues.
 *                    Pass false when the section has forms of its own (no nested forms).
 * - `loading`        the section's data is loading: a skeleton instead of the content.
 * - `actions`        extra buttons beside Continue.
 *
 * Read-only (after submission) it shows the content, no Continue, and a Next link to browse.
 * It must be rendered inside the portal frame (`/s/case-portal/:id/:section`), which provides
 * `usePortalFrame()`. Section files live in `sections/<section>.tsx` and default-export a
 * `ComponentType<PortalSectionProps>` (section-contract.ts).
 */
import { ERROR_TEXTS, PORTAL_SECTION_LABELS } from '@kestrel/domain';
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { ErrorSummary, type SummaryError } from '../../components/form-kit';
import { usePortalFrame } from './frame-context';

export type { SummaryError } from '../../components/form-kit';

export interface SectionShellProps {
  title?: string;
  intro?: ReactNode;
  errors?: SummaryError[];
  onContinue?: () => Promise<unknown> | unknown;
  onBack?: () => Promise<unknown> | unknown;
  saving?: boolean;
  continueLabel?: string;
  form?: boolean;
  loading?: boolean;
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * The summary lines of a react-hook-form form, in the order of `labels` (fields without a label
 * follow): 'Forename: Required'.
 */
export function formErrors<V extends FieldValues>(
  errors: FieldErrors<V>,
  labels: Readonly<Record<string, string>>,
): SummaryError[] {
  const keys = Object.keys(errors);
  const order = [...Object.keys(labels).filter((k) => keys.includes(k)), ...keys];
  const out: SummaryError[] = [];
  for (const key of new Set(order)) {
    const message = errors[key]?.message;
    if (typeof message !== 'string' || !message) continue;
    out.push({ field: key, message: `${labels[key] ?? key}: ${message}` });
  }
  return out;
}

export function SectionShell({
  title,
  intro,
  errors = [],
  onContinue,
  onBack,
  saving = false,
  continueLabel = 'Continue',
  form = true,
  loading = false,
  actions,
  children,
}: SectionShellProps) {
  const frame = usePortalFrame();
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState<'continue' | 'back' | null>(null);
  const [failed, setFailed] = useState(false);
  const mounted = useRef(true);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // A new section opened from a button that is gone now: the focus moves to its heading, so
    // keyboard and screen reader users start at the top of it.
    const active = document.activeElement;
    if (!active || active === document.body) headingRef.current?.focus();
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = async (which: 'continue' | 'back', action: () => Promise<unknown> | unknown) => {
    if (busy) return;
    setBusy(which);
    setFailed(false);
    try {
      await action();
    } catch {
      if (mounted.current) setFailed(true);
    } finally {
      if (mounted.current) setBusy(null);
    }
  };

  const onContinuePressed = () => {
    setAttempt((a) => a + 1);
    void run('continue', onContinue ?? (() => frame.complete()));
  };
  const onBackPressed = () => {
    const previous = frame.previous;
    if (!previous) return;
    void run('back', async () => {
      if (!frame.readOnly) await onBack?.();
      frame.goTo(previous);
    });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!frame.readOnly) onContinuePressed();
  };

  const summary: SummaryError[] =
    attempt > 0 || failed
      ? [...errors, ...(failed ? [{ message: ERROR_TEXTS.defaultError }] : [])]
      : [];
  const working = saving || busy !== null;
  const heading = title ?? PORTAL_SECTION_LABELS[frame.section];

  const buttons = (
    <Group justify="space-between" gap="sm" wrap="wrap-reverse" mt="md">
      {frame.previous && frame.section !== 'done' ? (
        <Button
          variant="default"
          size="md"
          onClick={onBackPressed}
          loading={busy === 'back'}
          disabled={working && busy !== 'back'}
        >
          Back
        </Button>
      ) : (
        <span />
      )}
      <Group gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="saving-state">
          {working && busy !== 'back' ? 'Saving…' : ''}
        </Text>
        {actions}
        {frame.readOnly ? (
          frame.following && (
            <Button
              size="md"
              variant="light"
              onClick={() => frame.following && frame.goTo(frame.following)}
            >
              Next
            </Button>
          )
        ) : (
          <Button
            size="md"
            type={form ? 'submit' : 'button'}
            onClick={form ? undefined : onContinuePressed}
            loading={busy === 'continue'}
            disabled={working && busy !== 'continue'}
            data-testid="portal-continue"
          >
            {continueLabel}
          </Button>
        )}
      </Group>
    </Group>
  );

  const body = (
    <Stack gap="lg">
      {/* Taller than a phone's screen: the buttons and the footer below stay out of view, so
          they do not jump when the section's data arrives (layout shift). */}
      {loading ? <Skeleton h={220} mih="70vh" radius="md" /> : children}
      {buttons}
    </Stack>
  );

  return (
    <Stack gap="lg" data-testid="section-shell" data-section={frame.section}>
      <ErrorSummary errors={summary} focusKey={attempt} />
      <Stack gap={6}>
        <Title order={1} size="h2" ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
          {heading}
        </Title>
        {intro && (
          <Text c="dimmed" component="div">
            {intro}
          </Text>
        )}
      </Stack>
      {frame.readOnly && frame.section !== 'done' && (
        <Alert color="blue" variant="light" data-testid="portal-read-only">
          Your answers have been submitted. You can look at them, but they can no longer be changed.
        </Alert>
      )}
      {form ? (
        <form onSubmit={onSubmit} noValidate aria-label={heading}>
          {body}
        </form>
      ) : (
        body
      )}
    </Stack>
  );
}
