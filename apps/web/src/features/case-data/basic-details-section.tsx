import {
  caseBasicDetailsIn,
  formatDate,
  GENDER_OPTIONS,
  isoDate,
  titlesForGender,
} from '@kestrel/domain';
import { Badge, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { type CaseBasicDetails, caseBasicDetails } from '../../api/case-basic-details';
import {
  Consents,
  CountryField,
  DateField,
  DbsTextField,
  LockedNotice,
  SaveRow,
  text,
} from './form-kit';
import { NewBadge, SectionCard } from './section-card';
import type { SectionProps } from './section-props';
import { useRecordSection } from './use-record-section';

export interface BasicDetailsForm {
  gender: string;
  title: string;
  forename: string;
  forename_dbs: string;
  middlename: string;
  middlename_dbs: string;
  surname: string;
  surname_dbs: string;
  email: string;
  email_dbs: string;
  dob: string;
  phone_number: string;
  nin: string;
  nationality: string;
  online_idv: boolean;
}

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
  online_idv: r?.online_idv ?? false,
});

const FIELD_LABELS: Record<string, string> = {
  gender: 'gender',
  title: 'title',
  forename: 'forename',
  middlename: 'middle name',
  surname: 'surname',
  dob: 'date of birth',
  phone_number: 'phone number',
  nin: 'national insurance number',
  nationality: 'nationality',
};

const schema = () => caseBasicDetailsIn(isoDate(new Date()));

export function BasicDetailsSection({ caseId, audience, readOnly }: SectionProps) {
  const s = useRecordSection({
    resource: caseBasicDetails,
    caseId,
    audience,
    schema,
    toForm,
    omit: ['email'],
  });
  const { form } = s;
  const gender = useWatch({ control: form.control, name: 'gender' });
  const locked = new Set(s.record?.locked_fields ?? []);
  const ro = (field: string) => readOnly || locked.has(field);
  const titles = titlesForGender(gender);
  const genderField = form.register('gender');
  return (
    <SectionCard
      title="Basic Details"
      loading={s.query.isPending}
      failed={s.loadFailed && s.record === undefined ? 'load' : s.saveFailed}
      onRetry={s.retry}
      badge={s.isNew ? <NewBadge /> : null}
    >
      <form onSubmit={s.submit} noValidate aria-label="Basic Details">
        <Stack gap="md">
          {locked.size > 0 && (
            <LockedNotice>
              Verified by the online identity check (IDSP), so it cannot be changed:{' '}
              {[...locked].map((f) => FIELD_LABELS[f] ?? f).join(', ')}.
            </LockedNotice>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NativeSelect
              size="md"
              label="Gender"
              required
              disabled={ro('gender')}
              data={[{ value: '', label: 'Choose' }, ...GENDER_OPTIONS]}
              error={form.formState.errors.gender?.message}
              {...genderField}
              onChange={async (e) => {
                const chosen = e.currentTarget.value;
                await genderField.onChange(e);
                const title = form.getValues('title');
                const allowed: readonly string[] = titlesForGender(chosen);
                if (title && !allowed.includes(title)) {
                  form.setValue('title', '', { shouldDirty: true, shouldValidate: true });
                }
              }}
            />
            <NativeSelect
              size="md"
              label="Title"
              required
              disabled={ro('title')}
              data={[
                { value: '', label: 'Choose' },
                ...titles.map((t) => ({ value: t, label: t })),
              ]}
              error={form.formState.errors.title?.message}
              {...form.register('title')}
            />
            <DbsTextField
              form={form}
              name="forename"
              label="Forename"
              kind="name"
              required
              readOnly={ro('forename')}
            />
            <DbsTextField
              form={form}
              name="middlename"
              label="Middle name"
              kind="name"
              readOnly={ro('middlename')}
            />
            <DbsTextField
              form={form}
              name="surname"
              label="Surname"
              kind="name"
              required
              readOnly={ro('surname')}
            />
            <TextInput
              label="Email"
              readOnly
              description="Taken from the subject"
              error={form.formState.errors.email?.message}
              {...form.register('email')}
            />
            {ro('dob') ? (
              <TextInput label="Date of birth" readOnly value={formatDate(form.getValues('dob'))} />
            ) : (
              <DateField
                control={form.control}
                name="dob"
                label="Date of birth"
                resetKey={s.resetKey}
              />
            )}
            <TextInput
              label="Phone number"
              required
              type="tel"
              readOnly={ro('phone_number')}
              error={form.formState.errors.phone_number?.message}
              {...form.register('phone_number')}
            />
            <DbsTextField
              form={form}
              name="nin"
              label="National insurance number"
              readOnly={ro('nin')}
              transform={(v) => v.toUpperCase()}
            />
            <CountryField
              form={form}
              name="nationality"
              label="Nationality"
              nationality
              disabled={ro('nationality')}
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed" component="div">
            Online identity check:{' '}
            <Badge variant="light" color={s.record?.online_idv ? 'teal' : 'gray'}>
              {s.record?.online_idv ? 'Yes' : 'No'}
            </Badge>
          </Text>
          {!readOnly && s.changed && <Consents consents={s.consents} />}
          {!readOnly && <SaveRow disabled={!s.canSave} saving={s.saving} />}
        </Stack>
      </form>
    </SectionCard>
  );
}
