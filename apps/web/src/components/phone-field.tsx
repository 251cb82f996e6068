import { PHONE_HINT } from '@kestrel/domain';
import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';

/**
 * The one phone number input: 'Phone number', a tel keyboard, and the domain's hint under it
 * (what the rule accepts), so a refused number ('Invalid number') comes with what a valid one
 * looks like. Takes react-hook-form's register() props.
 */
export function PhoneField({
  ref,
  label = 'Phone number',
  ...props
}: Omit<TextInputProps, 'type' | 'description'> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <TextInput
      ref={ref}
      label={label}
      type="tel"
      autoComplete="tel"
      description={PHONE_HINT}
      {...props}
    />
  );
}
