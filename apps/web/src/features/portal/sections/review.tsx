import {
  dbsApplicationSection,
  fieldErrorLines,
  PORTAL_SECTION_LABELS,
  type PortalSection,
} from '@kestrel/domain';
import { Anchor, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { PortalFailure, submitPortal } from '../../../api/portal';
import { usePortalFrame } from '../frame-context';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell, type SummaryError } from '../section-shell';
import {
  AddressesReview,
  BasicDetailsReview,
  DbsLevelReview,
  DbsUpdateReview,
  DocumentsReview,
  DriverDataReview,
  OnlineIdvReview,
  RtwReview,
} from '../summaries';

/** 'Change basic details', 'Change DBS update service': the label in running text. */
const inText = (label: string) =>
  /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);

function Block({ section, children }: { section: PortalSection; children: ReactNode }) {
  const frame = usePortalFrame();
  const label = PORTAL_SECTION_LABELS[section];
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="review-block">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Title order={2} size="h4">
            {label}
          </Title>
          {!frame.readOnly && (
            <Anchor
              component={Link}
              to={frame.linkTo(section)}
              style={{ minHeight: 44, display: 'inline-flex', alignItems: 'center', flexShrink: 0 }}
            >
              Change<VisuallyHidden> {inText(label)}</VisuallyHidden>
            </Anchor>
          )}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** What the person entered in one section, as text. */
function SectionAnswers({
  section,
  caseId,
  portal,
}: {
  section: PortalSection;
  caseId: number;
  portal: PortalSectionProps['portal'];
}) {
  switch (section) {
    case 'online-idv':
      return <OnlineIdvReview portal={portal} />;
    case 'basic-details':
      return <BasicDetailsReview caseId={caseId} />;
    case 'address-history':
      return <AddressesReview caseId={caseId} />;
    case 'document-collection':
      return <DocumentsReview caseId={caseId} portal={portal} />;
    case 'dbs-enhanced':
    case 'dbs-standard':
    case 'dbs-basic':
      return (
        <DbsLevelReview
          caseId={caseId}
          portal={portal}
          level={section}
          asks={dbsApplicationSection(portal.portal.sections) === section}
        />
      );
    case 'dbs-update':
      return <DbsUpdateReview caseId={caseId} portal={portal} />;
    case 'driver-data':
      return <DriverDataReview caseId={caseId} portal={portal} />;
    case 'rtw':
      return <RtwReview caseId={caseId} />;
    default:
      return null;
  }
}

/** Review & Submit: everything entered, a link back to each section, and Submit. */
export default function ReviewSection({ caseId, portal, refresh }: PortalSectionProps) {
  const frame = usePortalFrame();
  const [errors, setErrors] = useState<SummaryError[]>([]);
  const sections = portal.portal.sections.filter(
    (s) => s !== 'welcome' && s !== 'review' && s !== 'done',
  );

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
            <SectionAnswers section={s} caseId={caseId} portal={portal} />
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
