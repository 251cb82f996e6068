import {
  activityAskingConsent,
  type CaseDrivingLicenceOut,
  checkDrivingLicenceNumber,
  confirmationSchema,
  drivingLicenceFields,
  LICENCE_NUMBER_MAX_LENGTH,
  LICENCE_TYPE_LABELS,
  LICENCE_TYPES,
  type LicencePerson,
  licenceExpiryRange,
  MESSAGES,
  NO_SURNAME_LABEL,
  refineDrivingLicence,
} from '@kestrel/domain';
import { Alert, Checkbox, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { DVLA_MANDATE_LABEL, DvlaMandateText } from '../../../components/dvla-mandate';
import { DateField, schemaResolver } from '../../../components/form-kit';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell } from '../section-shell';
import {
  activeConsent,
  consentsOptions,
  drivingLicence,
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
import {
  applyServerErrors,
  isoToday,
  plusYears,
  useSectionDraft,
} from './dbs-application/section-kit';

/** A DVLA mandate (the signed declaration for driver data enquiries) lasts 3 years. */
export const DVLA_MANDATE_YEARS = 3;

interface DriverForm {
  licence_type: string;
  number: string;
  country: string;
  dob: string;
  expiry_date: string;
  no_surname: boolean;
  mandate: boolean;
}

const LABELS = {
  licence_type: 'Licence type',
  number: 'Driving licence number',
  expiry_date: 'Expiry date (photocard 4b)',
  mandate: 'Consent to driving licence checks',
};

const schema = (today: string, holder: LicencePerson) =>
  drivingLicenceFields
    .omit({ source: true, issue_date: true, country_dbs: true })
    .extend({ mandate: confirmationSchema })
    .superRefine((d, ctx) => refineDrivingLicence({ ...d, source: 'manual' }, ctx, today, holder));

/**
 * The checks across fields shown with the others at once (the schema's own run only once every
 * field passes): the licence number's mismatch with the person (as they type, point 5) and a
 * photocard's expiry date.
 */
function crossChecks(values: DriverForm, holder: LicencePerson): Record<string, string> {
  const out: Record<string, string> = {};
  if (values.licence_type === 'photo' && !values.expiry_date) out.expiry_date = MESSAGES.required;
  const number = values.number.replace(/\s+/g, '').toUpperCase();
  if (!number || number.length > LICENCE_NUMBER_MAX_LENGTH) return out;
  const mismatch = checkDrivingLicenceNumber(number, {
    ...holder,
    no_surname: values.no_surname,
  });
  if (mismatch) out.number = mismatch;
  return out;
}

/**
 * The portal's driver-data section (issue 16): the UK driving licence number, checked against
 * the person's name and date of birth with the domain's rule, and the mandate for the licence
 * and driver data checks (consent kind `driver-data`), which lasts 3 years.
 */
export default function DriverDataSection({
  caseId,
  portal,
  readOnly,
  complete,
}: PortalSectionProps) {
  const today = isoToday();
  const client = useQueryClient();
  const record = useQuery(drivingLicence(caseId));
  const consents = useQuery(consentsOptions());
  // the activity the mandate is given for: driver data's own, else a licence check's (it reads
  // the driver record too: the registry's `consent`)
  const activity = activityAskingConsent(portal.portal.case_activities, 'driver-data');
  const consent = activeConsent(consents.data, activity?.id ?? null, 'driver-data');
  const b = portal.basic_details;
  const holder: LicencePerson = {
    forename: b?.forename ?? '',
    middlename: b?.middlename ?? '',
    surname: b?.surname ?? '',
    forename_dbs: b?.forename_dbs ?? '',
    surname_dbs: b?.surname_dbs ?? '',
    dob: b?.dob ?? null,
  };
  const form = useForm<DriverForm>({
    resolver: schemaResolver<DriverForm>(
      () => schema(today, holder),
      (v) => crossChecks(v, holder),
    ),
    defaultValues: {
      licence_type: 'photo',
      number: '',
      country: 'GBR',
      dob: '',
      expiry_date: '',
      no_surname: false,
      mandate: false,
    },
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
    const r: CaseDrivingLicenceOut | null = record.data ?? null;
    form.reset({
      licence_type: r?.licence_type ?? 'photo',
      number: r?.number ?? '',
      country: r?.country || 'GBR',
      dob: r?.dob ?? '',
      expiry_date: r?.expiry_date ?? '',
      no_surname: r?.no_surname ?? false,
      mandate: consent !== null,
    });
    setResetKey((k) => k + 1);
  }, [loaded, record.data, consent, form]);
  const dropDraft = useSectionDraft(form, caseId, 'driver-data', loaded);
  const licenceType = useWatch({ control: form.control, name: 'licence_type' });
  const locked = record.data?.source === 'idsp';
  const ro = readOnly || locked;

  const save = async (strict: boolean): Promise<boolean> => {
    const valid = await form.trigger();
    if (!valid) return !strict;
    const v = form.getValues();
    try {
      if (!locked) {
        const saved = await saveRecord<CaseDrivingLicenceOut>(
          'case-driving-licences',
          caseId,
          {
            licence_type: v.licence_type,
            number: v.number.replace(/\s+/g, '').toUpperCase(),
            country: v.country,
            dob: v.dob || null,
            expiry_date: v.expiry_date || null,
            no_surname: v.no_surname,
          },
          record.data !== null && record.data !== undefined,
        );
        client.setQueryData(sectionKeys.record('case-driving-licences', caseId), saved);
      }
      if (strict && !consent && activity) {
        await giveConsent(caseId, activity.id, 'driver-data');
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
  const expiry = licenceExpiryRange(today);
  const numberField = form.register('number', { onBlur: () => void form.trigger('number') });
  const until = consent?.expires_at ?? plusYears(today, DVLA_MANDATE_YEARS);
  return (
    <SectionShell
      intro="We check your driving licence and driving record with the DVLA. Enter your licence number as it is on your licence (section 5 of a photocard)."
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
          {locked && (
            <Alert color="blue" variant="light">
              Your licence came from your online identity check: it cannot be changed here.
            </Alert>
          )}
          <NativeSelect
            id="licence_type"
            size="md"
            label={LABELS.licence_type}
            withAsterisk
            disabled={ro}
            data={LICENCE_TYPES.map((t) => ({ value: t, label: LICENCE_TYPE_LABELS[t] }))}
            error={messageOf(errors, 'licence_type')}
            {...form.register('licence_type')}
          />
          <TextInput
            id="number"
            size="md"
            label={LABELS.number}
            description="16 to 18 letters and digits, for example MORGA753116SM9IJ."
            autoComplete="off"
            autoCapitalize="characters"
            withAsterisk
            readOnly={ro}
            error={messageOf(errors, 'number')}
            {...numberField}
            onChange={(e) => {
              e.currentTarget.value = e.currentTarget.value.toUpperCase();
              return numberField.onChange(e);
            }}
          />
          <Checkbox
            size="md"
            label={NO_SURNAME_LABEL.replace('Subject doesn', 'I don')}
            disabled={ro}
            styles={{ body: { minHeight: 44, alignItems: 'center' } }}
            {...form.register('no_surname', {
              onChange: () => void (form.getValues('number') && form.trigger('number')),
            })}
          />
          {licenceType === 'photo' && (
            <FieldAnchor name="expiry_date">
              <DateField
                control={form.control}
                name="expiry_date"
                label={LABELS.expiry_date}
                min={expiry.min}
                max={expiry.max}
                disabled={ro}
                resetKey={resetKey}
              />
            </FieldAnchor>
          )}
          <Stack gap="xs">
            <DvlaMandateText
              customerName={portal.portal.customer.name}
              until={until}
              fromToday={!consent}
            />
            <ConfirmBox
              form={form}
              name="mandate"
              disabled={readOnly || consent !== null}
              label={DVLA_MANDATE_LABEL}
            />
          </Stack>
        </Stack>
      </TouchTargets>
    </SectionShell>
  );
}
