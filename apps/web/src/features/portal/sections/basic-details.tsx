import { caseBasicDetailsIn, isoDate } from '@kestrel/domain';
import { Alert, SimpleGrid, Stack } from '@mantine/core';
import { type CaseBasicDetails, caseBasicDetails } from '../../../api/case-basic-details';
import {
  BasicDetailsFields,
  type BasicDetailsFieldValues,
  LockedNotice,
  text,
} from '../../../components/form-kit';
import type { PortalSectionProps } from '../section-contract';
import { formErrors, SectionShell } from '../section-shell';
import { BasicDetailsReview } from '../summaries';
import { usePortalRecord } from '../use-portal-record';

type BasicDetailsForm = BasicDetailsFieldValues;

const toForm = (r: CaseBasicDetails | null): BasicDetailsForm => ({
  gender: text(r?.gender),
  title: text(r?.title),
  forename: text(r?.forename),
  forename_dbs: text(r?.forename_dbs),
  middlename: text(r?.middlename),
  middlename_dbs: text(r?.middlename_dbs),
  surname: text(r?.surname),
  surname_dbs: text(r?.surname_dbs),
  email: text(r?.email),
  email_dbs: text(r?.email_dbs),
  dob: text(r?.dob),
  phone_number: text(r?.phone_number),
  nin: text(r?.nin),
  nationality: text(r?.nationality),
});

/** The fields in screen order, as the error summary names them. */
export const BASIC_DETAILS_LABELS: Record<string, string> = {
  gender: 'Gender',
  title: 'Title',
  forename: 'Forename',
  forename_dbs: 'Forename (for DBS)',
  middlename: 'Middle name',
  middlename_dbs: 'Middle name (for DBS)',
  surname: 'Surname',
  surname_dbs: 'Surname (for DBS)',
  email: 'Email',
  email_dbs: 'Email (for DBS)',
  dob: 'Date of birth',
  phone_number: 'Phone number',
  nin: 'National insurance number',
  nin_dbs: 'National insurance number (for DBS)',
  nationality: 'Nationality',
};

const schema = () => caseBasicDetailsIn(isoDate(new Date()));

/** Basic details (spec point 5, case data forms): saved on Continue, kept as typed on Back. */
export default function BasicDetailsSection({ caseId, readOnly, complete }: PortalSectionProps) {
  const s = usePortalRecord({
    resource: caseBasicDetails,
    caseId,
    schema,
    toForm,
    omit: ['email'],
  });
  const { form } = s;
  const locked = new Set(s.record?.locked_fields ?? []);
  const ro = (field: string) => readOnly || locked.has(field);
  const errors = formErrors(form.formState.errors, BASIC_DETAILS_LABELS);

  return (
    <SectionShell
      intro="Tell us who you are. Use your full legal name, as it appears on your documents."
      loading={s.loading}
      errors={errors}
      saving={s.saving}
      onContinue={async () => {
        if (await s.save()) await complete();
      }}
      onBack={s.saveIfPossible}
    >
      {readOnly ? (
        <BasicDetailsReview caseId={caseId} />
      ) : s.loadFailed ? (
        <Alert color="red" variant="light" role="alert" data-testid="section-error">
          We could not load your details. Please try again.
        </Alert>
      ) : (
        <Stack gap="md">
          {locked.size > 0 && (
            <LockedNotice>
              These details were confirmed by your online identity check, so they cannot be changed
              here: {[...locked].map((f) => BASIC_DETAILS_LABELS[f]?.toLowerCase() ?? f).join(', ')}
              .
            </LockedNotice>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <BasicDetailsFields form={form} ro={ro} resetKey={s.resetKey} subject />
          </SimpleGrid>
        </Stack>
      )}
    </SectionShell>
  );
}
