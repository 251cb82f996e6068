import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetAddressLookup } from '../../api/case-addresses';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { EMPTY_SINGLE_ADDRESS, SingleAddressFields, type SingleAddressValues } from './index';

interface Segment {
  name: string;
  address: SingleAddressValues;
}

let latest: Segment | null = null;
function Demo() {
  const form = useForm<Segment>({
    defaultValues: { name: 'North', address: EMPTY_SINGLE_ADDRESS },
  });
  return (
    <form
      onSubmit={form.handleSubmit((v) => {
        latest = v;
      })}
    >
      <SingleAddressFields control={form.control} prefix="address." lookup="customer" />
      <button type="submit">Save</button>
    </form>
  );
}

beforeEach(() => {
  latest = null;
  forgetAddressLookup();
});

describe('SingleAddressFields', () => {
  it('edits lines, town and an upper-cased postcode under a prefix', async () => {
    mockFetch(() => ({ status: 200, body: { source: 'fake' } }));
    renderWithProviders(<Demo />);
    fireEvent.change(screen.getByLabelText('Address line 1'), { target: { value: '1 High St' } });
    fireEvent.change(screen.getByLabelText('Town'), { target: { value: 'Leeds' } });
    fireEvent.change(screen.getByLabelText('Postcode'), { target: { value: 'ls1 1aa' } });
    expect(screen.getByLabelText('Postcode')).toHaveValue('LS1 1AA');
    expect(screen.getByLabelText('Address line 1')).toHaveAttribute('id', 'address.line_one');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(latest).toEqual({
        name: 'North',
        address: { line_one: '1 High St', line_two: '', town: 'Leeds', postcode: 'LS1 1AA' },
      }),
    );
  });

  it('fills the fields from the postcode lookup', async () => {
    mockFetch((c) =>
      c.url.includes('lookup-source')
        ? { status: 200, body: { source: 'fake' } }
        : {
            status: 200,
            body: {
              results: [
                {
                  DPA: {
                    BUILDING_NUMBER: '10',
                    THOROUGHFARE_NAME: 'DOWNING STREET',
                    POST_TOWN: 'LONDON',
                    POSTCODE: 'SW1A 2AA',
                  },
                },
              ],
            },
          },
    );
    renderWithProviders(<Demo />);
    fireEvent.change(screen.getByLabelText('Find an address by postcode'), {
      target: { value: 'SW1A 2AA' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Find address' }));
    const choose = await screen.findByLabelText('Choose the address');
    fireEvent.change(choose, { target: { value: '0' } });
    await waitFor(() => expect(screen.getByLabelText('Town')).toHaveValue('London'));
    expect(screen.getByLabelText('Address line 1')).toHaveValue('10 Downing Street');
    expect(screen.getByLabelText('Postcode')).toHaveValue('SW1A 2AA');
  });
});
