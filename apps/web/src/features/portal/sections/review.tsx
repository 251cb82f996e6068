import { fieldErrorLines, PORTAL_SECTION_LABELS, type PortalSection } from '@kestrel/domain';
import { Anchor, Box, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { PortalFailure, submitPortal } from '../../../api/portal';
import { usePortalFrame } from '../frame-context';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell, type SummaryError } from '../section-shell';
import { AddressesReview, BasicDetailsReview, Row } from '../summaries';

function Block({ section, children }: { section: PortalSection; children?: ReactNode }) {
  const frame = usePortalFrame();
  const label = PORTAL_SECTION_LABELS[section];
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="review-block">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={2} size="h4">
            {label}
          </Title>
          {!frame.readOnly && (
            <Anchor
              component={Link}
              to={frame.linkTo(section)}
              style={{ minHeight: 44, display: 'inline-flex', alignItems: 'center' }}
            >
              Change<VisuallyHidden> {label.toLowerCase()}</VisuallyHidden>
            </Anchor>
          )}
        </Group>
        {children ?? (
          <Text size="sm" c="dimmed">
            Completed.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** Review & Submit: everything entered, a link back to each section, and Submit. */
export default function ReviewSection({ caseId, portal, refresh }: PortalSectionProps) {
  const frame = usePortalFrame();
  const [errors, setErrors] = useState<SummaryError[]>([]);
  const sections = portal.portal.sections.filter(
    (s) => s !== 'welcome' && s !== 'review' && s !== 'done',
  );
  const { passport, driving_licence } = portal.documentation;

  const onSubmit = async () => {
    setErrors([]);
    try {
      await submitPortal(caseId);
    } catch (error) {
      if (error instanceof PortalFailure && error.status === 400) {
        const { detail, ...fields } = error.body;
        const lines = fieldErrorLines(
          Object.fromEntries(
            Object.entries(fields).filter(
              (e): e is [string, string | string[]] =>
                typeof e[1] === 'string' || Array.isArray(e[1]),
            ),
          ),
        );
        setErrors(
          [...(typeof detail === 'string' ? [detail] : []), ...lines].map((message) => ({
            message,
          })),
        );
        if (lines.length || detail) return;
      }
      throw error;
    }
    await refresh();
    frame.goTo('done');
  };

  return (
    <SectionShell
      title="Check your answers"
      intro="Check everything below. You can change any answer before you submit. Once submitted, your answers cannot be changed."
      continueLabel="Submit"
      errors={errors}
      onContinue={onSubmit}
    >
      <Stack gap="md" data-testid="review">
        {sections.map((s) => (
          <Block key={s} section={s}>
            {s === 'basic-details' ? (
              <BasicDetailsReview caseId={caseId} />
            ) : s === 'address-history' ? (
              <AddressesReview caseId={caseId} />
            ) : s === 'document-collection' && (passport || driving_licence) ? (
              <Box component="dl" m={0} style={{ display: 'grid', gap: 6 }}>
                {passport && <Row label="Passport">{passport.number}</Row>}
                {driving_licence && <Row label="Driving licence">{driving_licence.number}</Row>}
              </Box>
            ) : undefined}
          </Block>
        ))}
        {sections.length === 0 && <Text>There is nothing else to check.</Text>}
        <Text size="sm">
          By submitting, you confirm that the details you have given are true and complete to the
          best of your knowledge.
        </Text>
      </Stack>
    </SectionShell>
  );
}
