import {
  Box,
  Checkbox,
  type CheckboxProps,
  MultiSelect,
  type MultiSelectProps,
  NativeSelect,
  type NativeSelectProps,
  PasswordInput,
  type PasswordInputProps,
  Select,
  type SelectProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { DateSelector, type DateSelectorProps } from '../date-selector';
import { PhoneField as PhoneInput } from '../phone-field';
import { useFieldLabel } from './kit-form';
import { text } from './schema-form';

/**
 * What binds a kit field to a react-hook-form form: its control and the field's (dotted) name.
 * The input's id is the name unless `id` is given, so the error summary links to it; the error
 * shown is the field's (browser or server) error.
 */
export interface Bound<T extends FieldValues, O = T> {
  control: Control<T, unknown, O>;
  name: Path<T>;
}

type Omitted = 'name' | 'value' | 'defaultValue' | 'onChange' | 'error' | 'form' | 'checked';

function useBound<T extends FieldValues, O>(
  { control, name }: Bound<T, O>,
  label: ReactNode,
  id: string | undefined,
) {
  const { field, fieldState } = useController({ control, name });
  useFieldLabel(name, label);
  return { field, error: fieldState.error?.message, id: id ?? name };
}

/** The props a text-like input takes from its field: id, ref, name, value, change, blur, error. */
function useTextBinding<T extends FieldValues, O>(
  bound: Bound<T, O>,
  label: ReactNode,
  id: string | undefined,
  transform?: (value: string) => string,
) {
  const { field, error, id: inputId } = useBound(bound, label, id);
  return {
    id: inputId,
    ref: field.ref,
    name: field.name,
    value: text(field.value),
    onChange: (e: { currentTarget: { value: string } }) => {
      const v = e.currentTarget.value;
      field.onChange(transform ? transform(v) : v);
    },
    onBlur: field.onBlur,
    error,
  };
}

/** A text input; `transform` rewrites what is typed (a postcode upper-cased). */
export function TextField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  transform,
  ...props
}: Bound<T, O> & Omit<TextInputProps, Omitted> & { transform?: (value: string) => string }) {
  const binding = useTextBinding({ control, name }, props.label, id, transform);
  return <TextInput {...props} {...binding} />;
}

/** An email input ('Email' unless labelled otherwise, email keyboard and autocomplete). */
export function EmailField<T extends FieldValues, O = T>({
  label = 'Email',
  ...props
}: Bound<T, O> & Omit<TextInputProps, Omitted | 'type'>) {
  return <TextField type="email" autoComplete="email" label={label} {...props} />;
}

/** A password input. */
export function PasswordField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  ...props
}: Bound<T, O> & Omit<PasswordInputProps, Omitted>) {
  const binding = useTextBinding({ control, name }, props.label, id);
  return <PasswordInput {...props} {...binding} />;
}

/** The phone number input (components/phone-field: its hint and tel keyboard), bound. */
export function PhoneNumberField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  label = 'Phone number',
  ...props
}: Bound<T, O> & Omit<TextInputProps, Omitted | 'type' | 'description'>) {
  const binding = useTextBinding({ control, name }, label, id);
  return <PhoneInput {...props} label={label} {...binding} />;
}

/** A multi-line text input. */
export function TextareaField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  ...props
}: Bound<T, O> & Omit<TextareaProps, Omitted>) {
  const binding = useTextBinding({ control, name }, props.label, id);
  return <Textarea {...props} {...binding} />;
}

/**
 * A choice from a list (Mantine Select: type to filter). The value is the option's string, or
 * '' when none is chosen (`emptyValue` to store null instead).
 */
export function SelectField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  emptyValue = '',
  ...props
}: Bound<T, O> & Omit<SelectProps, Omitted> & { emptyValue?: '' | null }) {
  const { field, error, id: inputId } = useBound({ control, name }, props.label, id);
  return (
    <Select
      allowDeselect={false}
      size="md"
      {...props}
      id={inputId}
      ref={field.ref}
      name={field.name}
      value={text(field.value) || null}
      onChange={(v) => field.onChange(v ?? emptyValue)}
      onBlur={field.onBlur}
      error={error}
    />
  );
}

/** A choice from a short list as the browser's own select (best on phones). */
export function NativeSelectField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  ...props
}: Bound<T, O> & Omit<NativeSelectProps, Omitted>) {
  const binding = useTextBinding({ control, name }, props.label, id);
  return <NativeSelect size="md" {...props} {...binding} />;
}

/** Several choices from a list; the value is an array of the options' strings. */
export function MultiSelectField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  ...props
}: Bound<T, O> & Omit<MultiSelectProps, Omitted>) {
  const { field, error, id: inputId } = useBound({ control, name }, props.label, id);
  const value: string[] = Array.isArray(field.value) ? field.value.map(text) : [];
  return (
    <MultiSelect
      size="md"
      {...props}
      id={inputId}
      ref={field.ref}
      name={field.name}
      value={value}
      onChange={(v) => field.onChange(v)}
      onBlur={field.onBlur}
      error={error}
    />
  );
}

/** A yes/no box; the value is a boolean. */
export function CheckboxField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  ...props
}: Bound<T, O> & Omit<CheckboxProps, Omitted>) {
  const { field, error, id: inputId } = useBound({ control, name }, props.label, id);
  return (
    <Checkbox
      {...props}
      id={inputId}
      ref={field.ref}
      name={field.name}
      checked={field.value === true}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
      error={error}
    />
  );
}

/**
 * A date held as 'YYYY-MM-DD' ('' while incomplete), picked with the date selector (year, month,
 * day). Its wrapper carries the name as id and data-field, so the summary focuses the year.
 * `disabled` shows the value read-only; `resetKey` changes when the form is reset, so the
 * selector takes the new value.
 */
export function DateField<T extends FieldValues, O = T>({
  control,
  name,
  id,
  label,
  required = true,
  disabled = false,
  resetKey,
  ...props
}: Bound<T, O> &
  Omit<DateSelectorProps, 'value' | 'onChange' | 'error' | 'label'> & {
    label: string;
    id?: string;
    disabled?: boolean;
    resetKey?: number;
  }) {
  const { field, error, id: boxId } = useBound({ control, name }, label, id);
  return (
    <Box id={boxId} data-field={name}>
      {disabled ? (
        <TextInput label={label} readOnly value={text(field.value)} />
      ) : (
        <DateSelector
          {...props}
          key={resetKey}
          label={label}
          required={required}
          value={typeof field.value === 'string' ? field.value : null}
          onChange={(v) => {
            field.onChange(v ?? '');
            field.onBlur();
          }}
          error={error}
        />
      )}
    </Box>
  );
}
