import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { type Collector, collectorsForActivities } from '../../documents';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell, type SummaryError } from '../section-shell';
import { CollectorDocuments, useSubjectDocuments } from './document-collection/collector-documents';

/** The words when a list has nothing at Continue. */
export const nothingUploaded = (c: Collector) =>
  `Upload at least one document for ${c.title.toLowerCase()}`;

/** The words when a list still holds a document that was not accepted. */
export const replaceRejected = (c: Collector) =>
  `Replace or remove the document of ${c.title.toLowerCase()} that was not accepted`;

/**
 * Portal section 'document-collection' (issue 16): per collector (the identity-check list, the
 * right-to-work list, by the case's activities) the eligible document types, each with its
 * yes/no questions to confirm, uploaded from the camera or files with progress; documents can be
 * viewed, replaced, given more pages or removed until the case is submitted.
 */
export default function DocumentCollectionSection({
  caseId,
  portal,
  readOnly,
  complete,
}: PortalSectionProps) {
  const activities = portal.portal.case_activities;
  const activity = activities.find((a) => a.activity_type.code === 'document-collection') ?? null;
  const collectors = collectorsForActivities(activities);
  const { docs, of, all } = useSubjectDocuments(caseId);
  const [errors, setErrors] = useState<SummaryError[]>([]);
  const ro = readOnly || portal.portal.submitted;

  const onContinue = async () => {
    const missing = collectors.flatMap((c) =>
      of(c).length === 0
        ? [{ field: `collector-${c.key}`, message: nothingUploaded(c) }]
        : all(c).some((d) => d.rejected)
          ? [{ field: `collector-${c.key}`, message: replaceRejected(c) }]
          : [],
    );
    setErrors(missing);
    if (missing.length === 0) await complete();
  };

  return (
    <SectionShell
      title="Documents"
      intro={
        ro ? undefined : (
          <>
            Photograph or scan the original documents. Confirm what each question asks before you
            upload: a document we cannot accept delays your checks.{' '}
            <Anchor href="/dbs-document-picker" target="_blank" rel="noopener noreferrer">
              Which documents can I use?
            </Anchor>
          </>
        )
      }
      errors={errors}
      onContinue={onContinue}
      form={false}
      loading={docs.isPending}
    >
      <Stack gap="xl" maw={760}>
        {docs.isError && (
          <Alert color="red" title="Error getting list of case documents">
            <Button variant="default" size="md" onClick={() => void docs.refetch()}>
              Try again
            </Button>
          </Alert>
        )}
        {docs.isSuccess &&
          collectors.map((c) => (
            <CollectorDocuments
              key={c.key}
              caseId={caseId}
              collector={c.key}
              caseActivity={activity?.id ?? null}
              readOnly={ro}
              error={errors.find((e) => e.field === `collector-${c.key}`)?.message}
              onUploaded={() =>
                setErrors((list) => list.filter((e) => e.field !== `collector-${c.key}`))
              }
            />
          ))}
      </Stack>
    </SectionShell>
  );
}
