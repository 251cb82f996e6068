import {
  type CaseDbsUpdateDetailsOut,
  confirmationSchema,
  dbsUpdateDetailsFields,
  refineDbsUpdateDetails,
} from '@kestrel/domain';
import { Alert, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type DefaultValues, useForm } from 'react-hook-form';
import { DateField, schemaResolver } from '../../../components/form-kit';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell } from '../section-shell';
import {
  activeConsent,
  consentsOptions,
  dbsUpdateDetails,
  giveConsent,
  saveRecord,
  sectionKeys,
} from './dbs-application/api';
import {
  ConfirmBox,
  FieldAnchor,
  messageOf,
  summaryOf,
  TouchTargets,
} from './dbs-application/fields';
import { applyServerErrors, isoToday, useSectionDraft } from './dbs-application/section-kit';

interface UpdateForm {
  certificate_number: string;
  surname: string;
  dob: string;
  consent: boolean;
}

const LABELS = {
  certificate_number: 'Certificate number',
  surname: 'Last name on the certificate',
  dob: 'Date of birth on the certificate',
  consent: 'Consent to status checks',
};

const schema = (today: string) =>
  dbsUpdateDetailsFields
    .extend({ consent: confirmationSchema })
    .superRefine((d, ctx) => refineDbsUpdateDetails(d, ctx, today));

/**
 * The portal's dbs-update section (issue 16): the DBS certificate number, surname and date of
 * birth as on the certificate (case-dbs-update-details), and consent to status checks on the
 * DBS update service (consent kind `dbs-update`).
 */
export default function DbsUpdateSection({
  caseId,
  portal,
  readOnly,
  complete,
}: PortalSectionProps) {
  const today = isoToday();
  const client = useQueryClient();
  const record = useQuery(dbsUpdateDetails(caseId));
  const consents = useQuery(consentsOptions());
  const activity = portal.portal.case_activities.find((a) => a.activity_type.code === 'dbs-update');
  const consent = activeConsent(consents.data, activity?.id ?? null, 'dbs-update');
  const form = useForm<UpdateForm>({
    resolver: schemaResolver<UpdateForm>(() => schema(today)),
    defaultValues: { certificate_number: '', surname: '', dob: '', consent: false },
    // Checked on Continue (GOV.UK): no message moves the button while it is pressed.
    mode: 'onSubmit',
  });
  const loaded = record.data !== undefined && consents.isFetched;
  const once = useRef(false);
  // Bumped after the form is filled, so the date selectors take the loaded values.
  const [resetKey, setResetKey] = useState(0);
  useEffect(() => {
    if (!loaded || once.current) return;
    once.current = true;
    const r: CaseDbsUpdateDetailsOut | null = record.data ?? null;
    const b = portal.basic_details;
    form.reset({
      certificate_number: r?.certificate_number ?? '',
      surname: r?.surname ?? b?.surname ?? '',
      dob: r?.dob ?? b?.dob ?? '',
      consent: consent !== null,
    } satisfies DefaultValues<UpdateForm>);
    setResetKey((k) => k + 1);
  }, [loaded, record.data, portal.basic_details, consent, form]);
  const dropDraft = useSectionDraft(form, caseId, 'dbs-update', loaded);

  const save = async (strict: boolean): Promise<boolean> => {
    const valid = await form.trigger();
    if (!valid) return !strict;
    const v = form.getValues();
    try {
      const saved = await saveRecord<CaseDbsUpdateDetailsOut>(
        'case-dbs-update-details',
        caseId,
        {
          certificate_number: v.certificate_number.replace(/\s+/g, ''),
          surname: v.surname.trim(),
          dob: v.dob,
        },
        record.data !== null && record.data !== undefined,
      );
      client.setQueryData(sectionKeys.record('case-dbs-update-details', caseId), saved);
      if (strict && !consent && activity) {
        await giveConsent(caseId, activity.id, 'dbs-update');
        await client.invalidateQueries({ queryKey: sectionKeys.consents });
      }
      dropDraft();
      return true;
    } catch (error) {
      if (applyServerErrors(form, error)) return false;
      throw error;
    }
  };

  const { errors } = form.formState;
  return (
    <SectionShell
      intro="If you already have a DBS certificate registered with the DBS update service, we can check its status instead of asking for a new check. Enter the details exactly as they are on your certificate."
      loading={!loaded && !record.isError}
      errors={summaryOf(errors, LABELS)}
      onContinue={async () => {
        if (await save(true)) await complete();
      }}
      onBack={() => save(false)}
    >
      {record.isError && (
        <Alert color="red" variant="light">
          Your details could not be loaded. Please try again.
        </Alert>
      )}
      <TouchTargets>
        <Stack gap="lg">
          <TextInput
            id="certificate_number"
            size="md"
            label={LABELS.certificate_number}
            description="The 12 digits at the top right of your certificate."
            inputMode="numeric"
            autoComplete="off"
            withAsterisk
            readOnly={readOnly}
            error={messageOf(errors, 'certificate_number')}
            {...form.register('certificate_number')}
          />
          <TextInput
            id="surname"
            size="md"
            label={LABELS.surname}
            withAsterisk
            readOnly={readOnly}
            error={messageOf(errors, 'surname')}
            {...form.register('surname')}
          />
          <FieldAnchor name="dob">
            <DateField
              control={form.control}
              name="dob"
              label={LABELS.dob}
              disabled={readOnly}
              resetKey={resetKey}
            />
          </FieldAnchor>
          <Stack gap="xs">
            <Text size="sm">
              {portal.portal.customer.name} will check the status of your certificate with the DBS
              update service now and, while you work with them, again from time to time. The DBS
              shows you who checked it.
            </Text>
            <ConfirmBox
              form={form}
              name="consent"
              disabled={readOnly || consent !== null}
              label="I consent to status checks of my DBS certificate on the DBS update service."
            />
          </Stack>
        </Stack>
      </TouchTargets>
    </SectionShell>
  );
}
