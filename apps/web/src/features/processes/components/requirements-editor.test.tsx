import { MESSAGES } from '@kestrel/domain';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Requirement } from '../../../api/processes';
import { initialSessionState, resetSession, setSession } from '../../../lib/session/session-store';
import type { BootstrapData } from '../../../lib/session/types';
import { renderWithProviders } from '../../../test/render';
import { RequirementsEditor, validateRequirements } from './requirements-editor';

const bootstrap = {
  activityTypes: [
    { id: 1, code: 'basic-details', name: 'Basic details', kind: 'basic-details' },
    { id: 2, code: 'dbs-enhanced', name: 'Enhanced DBS check', kind: 'dbs-result' },
  ],
} as Pick<BootstrapData, 'activityTypes'>;

function Harness({ readOnly = false, start = [] }: { readOnly?: boolean; start?: Requirement[] }) {
  const [value, setValue] = useState<Requirement[]>(start);
  return (
    <>
      <RequirementsEditor value={value} onChange={setValue} readOnly={readOnly} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

afterEach(() => resetSession());

describe('validateRequirements', () => {
  it('asks for the text a choice makes required', () => {
    expect(
      validateRequirements([
        {
          activity_type: 'dbs-enhanced',
          config: { purpose: 'other', employer_name_source: 'custom' },
        },
      ]),
    ).toEqual({
      'dbs-enhanced': { other_purpose: MESSAGES.required, employer_name: MESSAGES.required },
    });
    expect(
      validateRequirements([
        { activity_type: 'dbs-enhanced', config: { purpose: 'other', other_purpose: 'Care' } },
      ]),
    ).toEqual({});
  });
});

describe('RequirementsEditor', () => {
  it('lists the customer activity types and shows a ticked check its configuration', () => {
    setSession({ ...initialSessionState(), bootstrap: bootstrap as BootstrapData });
    renderWithProviders(<Harness />);
    expect(screen.queryByLabelText('Workforce')).toBeNull();
    fireEvent.click(screen.getByLabelText('Enhanced DBS check'));
    expect(screen.getByLabelText('Workforce')).toBeTruthy();
    // Other purpose appears only once the purpose is 'other'.
    expect(screen.queryByLabelText('Other purpose')).toBeNull();
    fireEvent.change(screen.getByLabelText('Purpose'), { target: { value: 'other' } });
    expect(screen.getByLabelText('Other purpose')).toBeTruthy();
    expect(JSON.parse(screen.getByTestId('value').textContent ?? '')).toEqual([
      { activity_type: 'dbs-enhanced', config: { purpose: 'other' } },
    ]);
  });

  it('read-only, shows only the checks the process runs, disabled', () => {
    setSession({ ...initialSessionState(), bootstrap: bootstrap as BootstrapData });
    renderWithProviders(
      <Harness readOnly start={[{ activity_type: 'basic-details', config: {} }]} />,
    );
    const box = screen.getByLabelText('Basic details');
    expect((box as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByLabelText('Enhanced DBS check')).toBeNull();
  });
});
