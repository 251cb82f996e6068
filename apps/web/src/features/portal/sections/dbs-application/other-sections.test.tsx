import { formatDate, licenceNumberReference } from '@kestrel/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../../test/fetch-mock';
import DbsEnhancedSection from '../dbs-enhanced';
import DbsUpdateSection from '../dbs-update';
import DriverDataSection from '../driver-data';
import RtwSection from '../rtw';
import { payload, renderSection } from './test-kit';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear(); // the drafts of one test are not the next one's
});

const pathOf = (c: Call) => new URL(c.url, 'http://x').pathname;
const writes = (calls: Call[]) =>
  calls.filter((c) => c.method !== 'GET').map((c) => [c.method, pathOf(c), c.body]);
const continueButton = () => screen.getByRole('button', { name: 'Continue' });
const summaryLinks = async () =>
  within(await screen.findByTestId('error-summary'))
    .getAllByRole('link')
    .map((a) => a.textContent);

/** GETs answer `records` by path (404 when absent); writes echo their body. */
function api(records: Record<string, unknown>) {
  return mockFetch((call) => {
    const path = pathOf(call);
    if (call.method === 'GET') {
      if (path === '/api/s/consents/') return { status: 200, body: records[path] ?? [] };
      return path in records
        ? { status: 200, body: records[path] }
        : { status: 404, body: { detail: 'Not found.' } };
    }
    return {
      status: call.method === 'POST' ? 201 : 200,
      body: { case: 7, ...(call.body as object) },
    };
  });
}

describe('dbs-update section', () => {
  it('checks the certificate number, prefills the name and date of birth, and gives the consent', async () => {
    const calls = api({});
    const { complete } = renderSection(
      DbsUpdateSection,
      'dbs-update',
      payload({ activities: [{ id: 40, code: 'dbs-update' }] }),
    );
    const number = await screen.findByLabelText(/Certificate number/);
    await waitFor(() =>
      expect(screen.getByLabelText(/Last name on the certificate/)).toHaveValue('Byron'),
    );
    await userEvent.type(number, '1234');
    await userEvent.click(continueButton());
    expect(await summaryLinks()).toEqual([
      'Certificate number: Invalid number',
      'Consent to status checks: Please confirm',
    ]);
    await userEvent.clear(number);
    await userEvent.type(number, '0012 3456 7890');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(continueButton());
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
    expect(writes(calls)).toEqual([
      [
        'POST',
        '/api/s/case-dbs-update-details/',
        { certificate_number: '001234567890', surname: 'Byron', dob: '1985-12-10', case: 7 },
      ],
      ['POST', '/api/s/consents/', { case: 7, case_activity: 40, kind: 'dbs-update' }],
    ]);
  });
});

describe('driver-data section', () => {
  const person = { forename: 'Ada', middlename: '', surname: 'Byron', dob: '1985-12-10' };

  it('checks the licence number against the name and date of birth as it is typed', async () => {
    api({});
    renderSection(
      DriverDataSection,
      'driver-data',
      payload({ activities: [{ id: 50, code: 'driver-data' }] }),
    );
    const number = await screen.findByLabelText(/Driving licence number/);
    await userEvent.type(number, 'SMITH812105A99AB');
    await userEvent.tab();
    expect(await screen.findByText('Surname mismatch')).toBeInTheDocument();
    await userEvent.clear(number);
    await userEvent.type(number, 'BYRON801015A99AB');
    await userEvent.tab();
    expect(await screen.findByText('Date of birth mismatch')).toBeInTheDocument();
    await userEvent.clear(number);
    await userEvent.type(number, 'BYRON8121');
    await userEvent.tab();
    expect(await screen.findByText('Missing digits')).toBeInTheDocument();
  });

  it('saves the licence and gives the mandate, which lasts 3 years', async () => {
    const calls = api({});
    const { complete } = renderSection(
      DriverDataSection,
      'driver-data',
      payload({ activities: [{ id: 50, code: 'driver-data' }] }),
    );
    const number = await screen.findByLabelText(/Driving licence number/);
    const year = new Date().getUTCFullYear();
    const today = new Date().toISOString().slice(0, 10);
    expect(screen.getByTestId('mandate-expiry')).toHaveTextContent(
      formatDate(`${year + 3}${today.slice(4)}`),
    );
    await userEvent.type(number, licenceNumberReference(person).toLowerCase());
    await userEvent.click(continueButton());
    expect(await summaryLinks()).toEqual([
      'Expiry date (photocard 4b): Required',
      'Consent to driving licence checks: Please confirm',
    ]);
    const label = 'Expiry date (photocard 4b)';
    await userEvent.selectOptions(screen.getByLabelText(`${label}: year`), String(year + 2));
    await userEvent.selectOptions(screen.getByLabelText(`${label}: month`), 'March');
    await userEvent.selectOptions(screen.getByLabelText(`${label}: day`), '4');
    await userEvent.click(screen.getByRole('checkbox', { name: /I consent/ }));
    await userEvent.click(continueButton());
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
    expect(writes(calls)).toEqual([
      [
        'POST',
        '/api/s/case-driving-licences/',
        {
          licence_type: 'photo',
          number: licenceNumberReference(person),
          country: 'GBR',
          dob: null,
          expiry_date: `${year + 2}-03-04`,
          no_surname: false,
          case: 7,
        },
      ],
      ['POST', '/api/s/consents/', { case: 7, case_activity: 50, kind: 'driver-data' }],
    ]);
  });
});

describe('rtw section', () => {
  it('needs a route, and a well-formed share code for the online check', async () => {
    const calls = api({
      '/api/s/case-rtw-details/7/': {
        case: 7,
        route: '',
        share_code: '',
        verification_method_display: '',
        checked_by: null,
        checked_at: null,
        state_display: '',
      },
    });
    const { complete } = renderSection(RtwSection, 'rtw', payload({}));
    await screen.findByText(/How you will prove your right to work/);
    await userEvent.click(continueButton());
    expect(await summaryLinks()).toEqual(['How you will prove your right to work: Required']);
    await userEvent.click(screen.getByTestId('choice-share-code'));
    const code = await screen.findByLabelText(/Share code/);
    await userEvent.type(code, 'A12 345 678');
    await userEvent.click(continueButton());
    await waitFor(async () => expect(await summaryLinks()).toEqual(['Share code: Invalid format']));
    await userEvent.clear(code);
    await userEvent.type(code, 'w12 345 67x');
    await userEvent.click(continueButton());
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
    expect(writes(calls)).toEqual([
      ['PATCH', '/api/s/case-rtw-details/7/', { route: 'share-code', share_code: 'W1234567X' }],
    ]);
  });

  it('lists documents from the right to work list for the documents route', async () => {
    api({
      '/api/s/case-rtw-details/7/': {
        case: 7,
        route: 'documents',
        share_code: '',
        verification_method_display: '',
        checked_by: null,
        checked_at: null,
        state_display: '',
      },
    });
    renderSection(RtwSection, 'rtw', payload({}));
    const list = await screen.findByTestId('rtw-documents');
    expect(within(list).getByText('British passport (current or expired)')).toBeInTheDocument();
    expect(screen.getByText(/British and Irish citizens have no share code/)).toBeInTheDocument();
  });
});

describe('after submission', () => {
  it('shows the answers read-only, with no Continue and nothing saved', async () => {
    const calls = api({
      '/api/s/case-birth-details/7/': {
        case: 7,
        country: 'GBR',
        country_dbs: '',
        town: 'Leeds',
        town_dbs: '',
        county: '',
        county_dbs: '',
        locked_fields: [],
      },
      '/api/s/case-dbs-details/7/': {
        case: 7,
        idv_option: 'online',
        video_call_date: null,
        in_person_expected_date: null,
        state: 'pending',
      },
    });
    renderSection(DbsEnhancedSection, 'dbs-enhanced', payload({}), { readOnly: true });
    await screen.findByText('Where you were born');
    await waitFor(() => expect(screen.getByTestId('choice-online')).toBeDisabled());
    expect(screen.getByLabelText(/Country of birth/)).toBeDisabled();
    expect(screen.getByRole('checkbox')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(screen.getByTestId('portal-read-only')).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });
});

describe('drafts', () => {
  it('keeps what was typed but not saved when the person goes back, and shows it again', async () => {
    sessionStorage.clear();
    const calls = api({});
    const first = renderSection(
      DbsUpdateSection,
      'dbs-update',
      payload({ activities: [{ id: 40, code: 'dbs-update' }] }),
    );
    await userEvent.type(await screen.findByLabelText(/Certificate number/), '0012');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(first.goTo).toHaveBeenCalledWith('welcome'));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    first.unmount();
    renderSection(
      DbsUpdateSection,
      'dbs-update',
      payload({ activities: [{ id: 40, code: 'dbs-update' }] }),
    );
    await waitFor(() => expect(screen.getByLabelText(/Certificate number/)).toHaveValue('0012'));
  });
});
