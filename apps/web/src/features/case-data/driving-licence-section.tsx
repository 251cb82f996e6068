import {
  caseDrivingLicenceIn,
  isoDate,
  LICENCE_TYPE_LABELS,
  LICENCE_TYPES,
  licenceExpiryRange,
  NO_SURNAME_LABEL,
} from '@kestrel/domain';
import { Checkbox, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { caseBasicDetails } from '../../api/case-basic-details';
import { type CaseDrivingLicence, caseDrivingLicences } from '../../api/case-documents';
import { CountryField, LockedNotice, text } from '../../components/form-kit';
import { DocDate } from './document-fields';
import { NewBadge, SectionCard } from './section-card';
import { Consents, SaveRow } from './section-parts';
import type { SectionProps } from './section-props';
import { useRecordSection } from './use-record-section';

export interface DrivingLicenceForm {
  licence_type: string;
  number: string;
  country: string;
  country_dbs: string;
  dob: string;
  issue_date: string;
  expiry_date: string;
  no_surname: boolean;
  source: string;
}

const toForm = (r: CaseDrivingLicence | null): DrivingLicenceForm => ({
  licence_type: r?.licence_type ?? 'photo',
  number: text(r?.number),
  country: text(r?.country) || 'GBR',
  country_dbs: text(r?.country_dbs),
  dob: text(r?.dob),
  issue_date: text(r?.issue_date),
  expiry_date: text(r?.expiry_date),
  no_surname: r?.no_surname ?? false,
  source: r?.source ?? 'manual',
});

const today = () => isoDate(new Date());

export function DrivingLicenceSection({ caseId, audience, readOnly }: SectionProps) {
  // A UK licence number is checked against the person's name and date of birth (point 5).
  const person = useQuery(caseBasicDetails.options(caseId, audience)).data;
  const s = useRecordSection({
    resource: caseDrivingLicences,
    caseId,
    audience,
    toForm,
    omit: ['source'],
    // The holder: the case's basic details (the server falls back to the subject).
    schema: () => caseDrivingLicenceIn(today(), person ?? undefined),
  });
  const { form } = s;
  const locked = s.record?.source === 'idsp';
  const ro = readOnly || locked;
  const expiry = licenceExpiryRange(today());
  const licenceType = useWatch({ control: form.control, name: 'licence_type' });
  const numberField = form.register('number');
  return (
    <SectionCard
      title="Driving Licence"
      loading={s.query.isPending}
      failed={s.loadFailed && s.record === undefined ? 'load' : s.saveFailed}
      onRetry={s.retry}
      badge={s.isNew ? <NewBadge /> : null}
    >
      <form onSubmit={s.submit} noValidate aria-label="Driving Licence">
        <Stack gap="md">
          {locked && <LockedNotice />}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NativeSelect
              size="md"
              label="Licence type"
              required
              disabled={ro}
              data={LICENCE_TYPES.map((t) => ({ value: t, label: LICENCE_TYPE_LABELS[t] }))}
              error={form.formState.errors.licence_type?.message}
              {...form.register('licence_type')}
            />
            <TextInput
              label="Licence number"
              required
              readOnly={ro}
              error={form.formState.errors.number?.message}
              {...numberField}
              onChange={(e) => {
                e.currentTarget.value = e.currentTarget.value.toUpperCase();
                return numberField.onChange(e);
              }}
            />
            <CountryField form={form} name="country" label="Issuing country" dbs disabled={ro} />
            <DocDate
              control={form.control}
              name="dob"
              label="Date of birth"
              value={form.getValues('dob')}
              readOnly={ro}
              resetKey={s.resetKey}
            />
            <DocDate
              control={form.control}
              name="issue_date"
              label="Issue date"
              value={form.getValues('issue_date')}
              readOnly={ro}
              resetKey={s.resetKey}
            />
            <DocDate
              control={form.control}
              name="expiry_date"
              label="Expiry date"
              value={form.getValues('expiry_date')}
              readOnly={ro}
              min={expiry.min}
              max={expiry.max}
              required={licenceType === 'photo'}
              resetKey={s.resetKey}
            />
          </SimpleGrid>
          <Checkbox
            label={NO_SURNAME_LABEL}
            disabled={ro}
            {...form.register('no_surname', {
              // The number check reads the name: check it again.
              onChange: () => void form.trigger('number'),
            })}
          />
          {!ro && s.changed && <Consents consents={s.consents} />}
          {!ro && <SaveRow disabled={!s.canSave} saving={s.saving} />}
        </Stack>
      </form>
    </SectionCard>
  );
}
