import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { request } from '../../api/client';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import {
  CheckboxField,
  DateField,
  EmailField,
  KitForm,
  MultiSelectField,
  SelectField,
  TextareaField,
  TextField,
  unwrap,
  useKitForm,
} from './index';

const schema = z.object({
  name: z.string().min(1, 'Required'),
  email: z.string().email('Enter a valid email'),
  notes: z.string(),
  colour: z.string(),
  tags: z.array(z.string()),
  agree: z.boolean(),
  dob: z.string(),
});
type Values = z.infer<typeof schema>;
const empty: Values = {
  name: '',
  email: '',
  notes: '',
  colour: '',
  tags: [],
  agree: false,
  dob: '',
};

function Demo({ onSaved }: { onSaved?: (v: unknown) => void }) {
  const kit = useKitForm({
    schema,
    defaultValues: empty,
    submit: async (values: Values) =>
      unwrap(await request<{ id: number }>('POST', '/api/things/', { body: values })),
    onSaved,
  });
  const { control } = kit.form;
  return (
    <KitForm kit={kit} aria-label="Thing">
      <TextField control={control} name="name" label="Name" required />
      <EmailField control={control} name="email" />
      <TextareaField control={control} name="notes" label="Notes" />
      <SelectField control={control} name="colour" label="Colour" data={['Red', 'Blue']} />
      <MultiSelectField control={control} name="tags" label="Tags" data={['a', 'b']} />
      <CheckboxField control={control} name="agree" label="I agree" />
      <DateField control={control} name="dob" label="Date of birth" required={false} />
      <button type="submit">Save</button>
    </KitForm>
  );
}

describe('KitForm', () => {
  it('lists browser errors with their labels, links each to its field and takes the focus', async () => {
    const calls = mockFetch(() => ({ status: 201, body: { id: 1 } }));
    renderWithProviders(<Demo />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await screen.findByTestId('error-summary');
    expect(summary).toHaveTextContent('There is a problem');
    expect(summary).toHaveTextContent('Name: Required');
    expect(summary).toHaveTextContent('Email: Enter a valid email');
    await waitFor(() => expect(summary).toHaveFocus());
    fireEvent.click(screen.getByRole('link', { name: 'Name: Required' }));
    expect(screen.getByLabelText(/^Name/)).toHaveFocus();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('id', 'name');
    expect(calls).toHaveLength(0);
  });

  it("puts a 400's field errors on the fields and the rest in the summary", async () => {
    const calls = mockFetch(() => ({
      status: 400,
      body: { email: ['Already in use'], detail: 'Not saved', other_thing: ['Bad'] },
    }));
    renderWithProviders(<Demo />);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ann@example.com' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'I agree' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await screen.findByTestId('error-summary');
    await waitFor(() => expect(summary).toHaveTextContent('Email: Already in use'));
    expect(summary).toHaveTextContent('Not saved.');
    expect(summary).toHaveTextContent('Other thing: Bad.');
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls[0]?.body).toMatchObject({ name: 'Ann', agree: true, tags: [], dob: '' });
  });

  it('calls onSaved with the answer and shows no summary', async () => {
    mockFetch(() => ({ status: 201, body: { id: 7 } }));
    const saved: unknown[] = [];
    renderWithProviders(<Demo onSaved={(v) => saved.push(v)} />);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ann@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ id: 7 }]));
    expect(screen.queryByTestId('error-summary')).toBeNull();
  });
});
