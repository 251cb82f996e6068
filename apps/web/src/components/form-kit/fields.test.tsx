import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import {
  CheckboxField,
  DateField,
  MultiSelectField,
  NativeSelectField,
  PhoneNumberField,
  SelectField,
  TextareaField,
} from './index';

interface Values {
  kind: string;
  level: string;
  tags: string[];
  agree: boolean;
  notes: string;
  phone: string;
  start: string;
}

let saved: Values | null = null;
function Demo() {
  const form = useForm<Values>({
    defaultValues: {
      kind: 'b',
      level: '',
      tags: ['x'],
      agree: false,
      notes: '',
      phone: '',
      start: '2024-02-29',
    },
  });
  const { control } = form;
  return (
    <form
      onSubmit={form.handleSubmit((v) => {
        saved = v;
      })}
    >
      <SelectField
        control={control}
        name="kind"
        label="Kind"
        data={[
          { value: 'a', label: 'Alpha' },
          { value: 'b', label: 'Beta' },
        ]}
      />
      <NativeSelectField control={control} name="level" label="Level" data={['', 'Low', 'High']} />
      <MultiSelectField control={control} name="tags" label="Tags" data={['x', 'y']} />
      <CheckboxField control={control} name="agree" label="I agree" />
      <TextareaField control={control} name="notes" label="Notes" />
      <PhoneNumberField control={control} name="phone" />
      <DateField control={control} name="start" label="Start" min="2020-01-01" max="2025-12-31" />
      <button type="submit">Save</button>
    </form>
  );
}

describe('the kit fields', () => {
  it('show their values and give back what was chosen', async () => {
    saved = null;
    renderWithProviders(<Demo />);
    expect(document.getElementById('kind')).toHaveValue('Beta');
    expect(screen.getByLabelText('Start: year')).toHaveValue('2024');
    expect(screen.getByLabelText('Start: day')).toHaveValue('29');
    fireEvent.change(screen.getByLabelText('Level'), { target: { value: 'High' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'I agree' }));
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'Line' } });
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '07700900123' } });
    // A year without 29 February drops the day: the date is incomplete ('').
    fireEvent.change(screen.getByLabelText('Start: year'), { target: { value: '2023' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual({
        kind: 'b',
        level: 'High',
        tags: ['x'],
        agree: true,
        notes: 'Line',
        phone: '07700900123',
        start: '',
      }),
    );
    expect(document.getElementById('start')).toHaveAttribute('data-field', 'start');
  });
});
