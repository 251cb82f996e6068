import {
  ACCESS_LOG_RETENTION_MONTHS,
  type Permission,
  presentRetentionSettings,
  type RetentionSettingsOut,
} from '@kestrel/domain';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../../lib/session/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { boot, product, productIn } from '../../../test/sessions';
import CustomerAccountRetention from './customer-account-retention';

function signIn(permissions: Permission[]) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p) });
}

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

async function show(settings: RetentionSettingsOut) {
  mockFetch((call) =>
    new URL(call.url, 'http://x').pathname === '/api/customer-account/retention/'
      ? { status: 200, body: settings }
      : { status: 404, body: {} },
  );
  signIn(['customers.change_customer', 'cases.view_case']);
  renderWithProviders(
    <MemoryRouter>
      <CustomerAccountRetention />
    </MemoryRouter>,
  );
  const section = await screen.findByRole('region', { name: 'Other records' });
  const row = (code: string) =>
    within(section).getByTestId(`other-${code}`).textContent?.replace(/\s+/g, ' ');
  return { section, row };
}

describe('retention settings: other records', () => {
  it('shows each fixed period read-only, in plain words', async () => {
    const { section, row } = await show(
      presentRetentionSettings({ inspector: null, nextInspectionDate: null, months: {} }),
    );
    expect(row('outbox')).toBe('Emails and text messages sent30 days after they are sent');
    expect(row('job-payloads')).toBe(
      'Data held for background tasksWhat stays: The task’s kind, state and times1 day after the task is archived',
    );
    expect(row('access-log')).toBe(
      `Record of who viewed results and documents${ACCESS_LOG_RETENTION_MONTHS} months after the last view`,
    );
    expect(row('webhook-payloads')).toContain('30 days after delivery');
    expect(row('import-rows')).toContain('30 days after the import finishes');
    expect(row('refusals')).toBe('Refused requests90 days after the last refusal');
    // nothing to edit there
    expect(within(section).queryAllByRole('textbox')).toEqual([]);
    expect(within(section).queryAllByRole('spinbutton')).toEqual([]);
  });

  it("the access log follows the customer's longer criminal-record period", async () => {
    const { row } = await show(
      presentRetentionSettings({
        inspector: null,
        nextInspectionDate: null,
        months: { 'criminal-record-content': 36 },
      }),
    );
    expect(row('access-log')).toContain('36 months after the last view');
  });
});
