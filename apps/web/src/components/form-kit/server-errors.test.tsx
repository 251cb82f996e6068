import { renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { applyServerFieldErrors } from './server-errors';

interface Values {
  name: string;
  description: string;
  address: { postcode: string };
}

function formOf() {
  return renderHook(() =>
    useForm<Values>({
      defaultValues: { name: '', description: '', address: { postcode: '' } },
    }),
  ).result.current;
}

describe('applyServerFieldErrors', () => {
  it("puts messages on every path the form's values have (nested too), the rest as lines", () => {
    const form = formOf();
    const lines = applyServerFieldErrors(form, {
      name: ['Required.', 'Too short.'],
      address: { postcode: ['Not a postcode.'] },
      colour: ['Unknown.'],
      detail: 'Check the form.',
    });
    expect(form.getFieldState('name').error?.message).toBe('Required. Too short.');
    expect(form.getFieldState('address.postcode').error?.message).toBe('Not a postcode.');
    expect(lines).toContain('Check the form.');
    expect(lines.some((l) => l.includes('Unknown'))).toBe(true);
    expect(lines.some((l) => l.includes('Required'))).toBe(false);
  });

  it('with `fields`, only those are fields: the others become lines', () => {
    const form = formOf();
    const lines = applyServerFieldErrors(form, { name: ['Taken.'], description: ['Too long.'] }, [
      'name',
    ]);
    expect(form.getFieldState('name').error?.message).toBe('Taken.');
    expect(form.getFieldState('description').error).toBeUndefined();
    expect(lines.some((l) => l.includes('Too long'))).toBe(true);
  });
});
