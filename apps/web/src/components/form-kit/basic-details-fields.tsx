import { formatDate, GENDER_OPTIONS, titlesForGender } from '@kestrel/domain';
import { Box, NativeSelect, TextInput } from '@mantine/core';
import { type FieldValues, type Path, type UseFormReturn, useWatch } from 'react-hook-form';
import { PhoneField } from '../phone-field';
import { CountryField, DbsTextField } from './case-fields';
import { DateField } from './fields';

/** The basic details values both the case data screen and the subject portal edit. */
export interface BasicDetailsFieldValues {
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
}

/**
 * The basic details fields (gender to nationality), one home for the customer's case data
 * screen and the subject portal's section. `subject`: the portal's wording and sizes (the
 * '(for DBS)' values locked on their own, the email described as the sign-in address, phone
 * hints); otherwise the customer's. Kept small so the portal chunk does not pull the case data
 * screen.
 */
export function BasicDetailsFields<V extends BasicDetailsFieldValues & FieldValues>({
  form,
  ro,
  resetKey,
  subject = false,
}: {
  form: UseFormReturn<V>;
  /** Whether a field is read-only (the section read-only, or the field locked). */
  ro: (field: string) => boolean;
  resetKey: number;
  subject?: boolean;
}) {
  const p = (name: keyof BasicDetailsFieldValues) => name as Path<V>;
  const gender = useWatch({ control: form.control, name: p('gender') });
  const titles = titlesForGender(String(gender ?? ''));
  const genderField = form.register(p('gender'));
  const { errors } = form.formState;
  const message = (name: keyof BasicDetailsFieldValues) => {
    const e = errors[name];
    return e && typeof e.message === 'string' ? e.message : undefined;
  };
  const alt = (name: keyof BasicDetailsFieldValues) =>
    subject ? { altReadOnly: ro(`${name}_dbs`) } : {};
  const dob = ro('dob') ? (
    <TextInput
      {...(subject ? { size: 'md' } : {})}
      label="Date of birth"
      readOnly
      value={formatDate(String(form.getValues(p('dob')) ?? ''))}
    />
  ) : (
    <DateField control={form.control} name={p('dob')} label="Date of birth" resetKey={resetKey} />
  );
  return (
    <>
      <NativeSelect
        size="md"
        label="Gender"
        required
        disabled={ro('gender')}
        data={[{ value: '', label: 'Choose' }, ...GENDER_OPTIONS]}
        error={message('gender')}
        {...genderField}
        onChange={async (e) => {
          const chosen = e.currentTarget.value;
          await genderField.onChange(e);
          const title = String(form.getValues(p('title')) ?? '');
          const allowed: readonly string[] = titlesForGender(chosen);
          if (title && !allowed.includes(title)) {
            form.setValue(p('title'), '' as V[Path<V>], {
              shouldDirty: true,
              shouldValidate: true,
            });
          }
        }}
      />
      <NativeSelect
        size="md"
        label="Title"
        required
        disabled={ro('title')}
        data={[{ value: '', label: 'Choose' }, ...titles.map((t) => ({ value: t, label: t }))]}
        error={message('title')}
        {...form.register(p('title'))}
      />
      <DbsTextField
        form={form}
        name={p('forename')}
        label="Forename"
        kind="name"
        required
        readOnly={ro('forename')}
        {...alt('forename')}
      />
      <DbsTextField
        form={form}
        name={p('middlename')}
        label="Middle name"
        kind="name"
        readOnly={ro('middlename')}
        {...alt('middlename')}
      />
      <DbsTextField
        form={form}
        name={p('surname')}
        label="Surname"
        kind="name"
        required
        readOnly={ro('surname')}
        {...alt('surname')}
      />
      <TextInput
        {...(subject ? { size: 'md' } : {})}
        label="Email"
        readOnly
        description={subject ? 'The email address you signed in with' : 'Taken from the subject'}
        error={message('email')}
        {...form.register(p('email'))}
      />
      {subject ? <Box data-field="dob">{dob}</Box> : dob}
      <PhoneField
        {...(subject ? { size: 'md' } : {})}
        required
        readOnly={ro('phone_number')}
        error={message('phone_number')}
        {...form.register(p('phone_number'))}
      />
      <DbsTextField
        form={form}
        name={p('nin')}
        label="National insurance number"
        readOnly={ro('nin')}
        transform={(v) => v.toUpperCase()}
      />
      <CountryField
        form={form}
        name={p('nationality')}
        label="Nationality"
        nationality
        disabled={ro('nationality')}
      />
    </>
  );
}
