import { casePassportIn, isoDate, passportExpiryRange } from '@kestrel/domain';
import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { type CasePassport, casePassports } from '../../api/case-documents';
import { CountryField, LockedNotice, text } from '../../components/form-kit';
import { DocDate } from './document-fields';
import { NewBadge, SectionCard } from './section-card';
import { Consents, SaveRow } from './section-parts';
import type { SectionProps } from './section-props';
import { useRecordSection } from './use-record-section';

export interface PassportForm {
  number: string;
  country: string;
  country_dbs: string;
  dob: string;
  issue_date: string;
  expiry_date: string;
  source: string;
}

const toForm = (r: CasePassport | null): PassportForm => ({
  number: text(r?.number),
  country: text(r?.country),
  country_dbs: text(r?.country_dbs),
  dob: text(r?.dob),
  issue_date: text(r?.issue_date),
  expiry_date: text(r?.expiry_date),
  source: r?.source ?? 'manual',
});

const today = () => isoDate(new Date());
const schema = () => casePassportIn(today());

export function PassportSection({ caseId, audience, readOnly }: SectionProps) {
  const s = useRecordSection({
    resource: casePassports,
    caseId,
    audience,
    schema,
    toForm,
    omit: ['source'],
  });
  const { form } = s;
  const country = useWatch({ control: form.control, name: 'country' });
  const locked = s.record?.source === 'idsp';
  const ro = readOnly || locked;
  const expiry = passportExpiryRange(country, today());
  const numberField = form.register('number');
  return (
    <SectionCard
      title="Passport"
      loading={s.query.isPending}
      failed={s.loadFailed && s.record === undefined ? 'load' : s.saveFailed}
      onRetry={s.retry}
      badge={s.isNew ? <NewBadge /> : null}
    >
      <form onSubmit={s.submit} noValidate aria-label="Passport">
        <Stack gap="md">
          {locked && <LockedNotice />}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Passport number"
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
              required
              resetKey={s.resetKey}
            />
          </SimpleGrid>
          {!ro && s.changed && <Consents consents={s.consents} />}
          {!ro && <SaveRow disabled={!s.canSave} saving={s.saving} />}
        </Stack>
      </form>
    </SectionCard>
  );
}
