import { isoDate, minusMonths, plusYears } from '@kestrel/domain';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetAddressLookup } from '../../api/case-addresses';
import { resetSession, setSession } from '../../lib/session/session-store';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { product, productIn } from '../../test/sessions';
import { AddressHistorySection } from './address-history-section';
import { BasicDetailsSection } from './basic-details-section';
import { BirthDetailsSection } from './birth-details-section';
import CaseDataPanel from './case-data-panel';
import { DrivingLicenceSection } from './driving-licence-section';
import { OtherNamesSection } from './other-names-section';
import { PassportSection } from './passport-section';

afterEach(() => {
  // Toasts live in a store shared by the tests of this file.
  notifications.clean();
  notifications.cleanQueue();
  forgetAddressLookup();
  resetSession();
  vi.unstubAllGlobals();
});

const today = isoDate(new Date());
const props = { caseId: 7, audience: 'customer' as const, readOnly: false };

const basic = {
  case: 7,
  gender: 'female',
  title: 'Ms',
  forename: 'Alice',
  forename_dbs: '',
  middlename: '',
  middlename_dbs: '',
  surname: 'Smith',
  surname_dbs: '',
  email: 'alice@example.test',
  email_dbs: '',
  dob: '1990-05-17',
  phone_number: '020 7123 4567',
  nin: '',
  nationality: 'GBR',
  online_idv: false,
  locked_fields: [] as string[],
};

type Route = (call: Call) => { status: number; body?: unknown } | undefined;
/** Answers by method and path; anything else is a 404. */
function serve(...routes: Route[]) {
  return mockFetch((call) => {
    for (const route of routes) {
      const answer = route(call);
      if (answer) return answer;
    }
    return { status: 404, body: { detail: 'Not found.' } };
  });
}
const on =
  (method: string, path: string, answer: (call: Call) => { status: number; body?: unknown }) =>
  (call: Call) =>
    call.method === method && call.url.split('?')[0] === path ? answer(call) : undefined;

const section = (name: string) => screen.getByRole('region', { name });
const saveButton = (name: string) => within(section(name)).getByRole('button', { name: 'Save' });
const type = (label: string | RegExp, value: string, within_?: HTMLElement) =>
  fireEvent.change((within_ ? within(within_) : screen).getByLabelText(label), {
    target: { value },
  });

describe('Basic Details', () => {
  it('reveals the two consents on a change; Save waits for them and for a valid form', async () => {
    const calls = serve(
      on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })),
      on('PUT', '/api/case-basic-details/7/', (c) => ({
        status: 200,
        body: { ...basic, ...(c.body as object) },
      })),
    );
    renderWithProviders(<BasicDetailsSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Forename/)).toHaveValue('Alice'));
    expect(screen.queryByTestId('consents')).toBeNull();
    expect(saveButton('Basic Details')).toBeDisabled();

    type(/^Forename/, 'Alicia');
    const consents = await screen.findByTestId('consents');
    expect(within(consents).getAllByText('Please confirm')).toHaveLength(2);
    const boxes = within(consents).getAllByRole('checkbox');
    fireEvent.click(boxes[0] as HTMLElement);
    expect(within(consents).getAllByText('Please confirm')).toHaveLength(1);
    expect(saveButton('Basic Details')).toBeDisabled();
    fireEvent.click(boxes[1] as HTMLElement);
    expect(within(consents).queryByText('Please confirm')).toBeNull();
    await waitFor(() => expect(saveButton('Basic Details')).toBeEnabled());

    // An invalid section cannot be saved, consents or not.
    type(/^Surname/, '');
    expect(await screen.findByText('Required')).toBeInTheDocument();
    await waitFor(() => expect(saveButton('Basic Details')).toBeDisabled());
    type(/^Surname/, 'Smith-Jones');
    await waitFor(() => expect(saveButton('Basic Details')).toBeEnabled());

    fireEvent.click(saveButton('Basic Details'));
    expect(await screen.findByText('Successfully updated basic details')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ forename: 'Alicia', surname: 'Smith-Jones', nin: null });
    expect(put?.body).not.toHaveProperty('email');
    // Saved: the consents go until the next change.
    await waitFor(() => expect(screen.queryByTestId('consents')).toBeNull());
  });

  it("asks for the '(for DBS)' name with a warning when the name fails the DBS rules", async () => {
    serve(on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })));
    renderWithProviders(<BasicDetailsSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Surname/)).toHaveValue('Smith'));
    expect(screen.queryByLabelText(/Surname \(for DBS\)/)).toBeNull();
    type(/^Surname/, 'Ó Briain');
    expect(await screen.findByLabelText(/Surname \(for DBS\)/)).toBeInTheDocument();
    expect(screen.getByTestId('dbs-warning')).toHaveTextContent('The DBS cannot accept this value');
    const boxes = within(await screen.findByTestId('consents')).getAllByRole('checkbox');
    for (const box of boxes) fireEvent.click(box);
    // The alternative is required before the section can be saved.
    await waitFor(() => expect(saveButton('Basic Details')).toBeDisabled());
    type(/Surname \(for DBS\)/, 'O Briain');
    await waitFor(() => expect(saveButton('Basic Details')).toBeEnabled());
  });

  it('offers the titles of the chosen gender and clears one that no longer fits', async () => {
    serve(on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })));
    renderWithProviders(<BasicDetailsSection {...props} />);
    const title = await screen.findByLabelText(/^Title/);
    await waitFor(() => expect(title).toHaveValue('Ms'));
    const offered = () =>
      within(title)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value'));
    expect(offered()).toContain('Mrs');
    expect(offered()).not.toContain('Mr');
    fireEvent.change(screen.getByLabelText(/^Gender/), { target: { value: 'male' } });
    await waitFor(() => expect(offered()).toContain('Mr'));
    expect(offered()).not.toContain('Mrs');
    expect(title).toHaveValue('');
  });

  it('shows locked idsp fields read-only with the reason', async () => {
    serve(
      on('GET', '/api/case-basic-details/7/', () => ({
        status: 200,
        body: { ...basic, locked_fields: ['forename', 'surname'] },
      })),
    );
    renderWithProviders(<BasicDetailsSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Forename/)).toHaveAttribute('readonly'));
    expect(screen.getByLabelText(/^Surname/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Phone number/)).not.toHaveAttribute('readonly');
    expect(screen.getByTestId('locked-notice')).toHaveTextContent(/IDSP/);
  });

  it('sets the error state on a failed load, without a message, and retries', async () => {
    let fail = true;
    const calls = serve(
      on('GET', '/api/case-basic-details/7/', () =>
        fail ? { status: 500, body: { detail: 'boom' } } : { status: 200, body: basic },
      ),
    );
    renderWithProviders(<BasicDetailsSection {...props} />);
    const error = await screen.findByTestId('section-error');
    expect(section('Basic Details')).toHaveAttribute('data-error', 'true');
    expect(error).not.toHaveTextContent(/error|boom/i);
    // Nothing loaded: no form to fill in (and save over the stored record) until it loads.
    expect(screen.queryByLabelText(/^Forename/)).toBeNull();
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByLabelText(/^Forename/)).toHaveValue('Alice'));
    expect(screen.queryByTestId('section-error')).toBeNull();
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2);
  });

  it('keeps what was typed when a save fails, and Retry saves it again', async () => {
    let fail = true;
    const calls = serve(
      on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })),
      on('PUT', '/api/case-basic-details/7/', (c) =>
        fail
          ? { status: 503, body: {} }
          : { status: 200, body: { ...basic, ...(c.body as object) } },
      ),
    );
    renderWithProviders(<BasicDetailsSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Forename/)).toHaveValue('Alice'));
    type(/^Forename/, 'Alicia');
    for (const box of within(await screen.findByTestId('consents')).getAllByRole('checkbox')) {
      fireEvent.click(box);
    }
    await waitFor(() => expect(saveButton('Basic Details')).toBeEnabled());
    fireEvent.click(saveButton('Basic Details'));
    const error = await screen.findByTestId('section-error');
    expect(screen.getByLabelText(/^Forename/)).toHaveValue('Alicia');
    expect(screen.queryByText(/Successfully/)).toBeNull();
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Successfully updated basic details')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByTestId('section-error')).toBeNull());
  });

  it("puts a 400's field messages on the fields", async () => {
    serve(
      on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })),
      on('PUT', '/api/case-basic-details/7/', () => ({
        status: 400,
        body: { phone_number: ['Invalid number'] },
      })),
    );
    renderWithProviders(<BasicDetailsSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Forename/)).toHaveValue('Alice'));
    type(/^Forename/, 'Alicia');
    for (const box of within(await screen.findByTestId('consents')).getAllByRole('checkbox')) {
      fireEvent.click(box);
    }
    await waitFor(() => expect(saveButton('Basic Details')).toBeEnabled());
    fireEvent.click(saveButton('Basic Details'));
    expect(await screen.findByText('Invalid number')).toBeInTheDocument();
    expect(screen.getByTestId('section-error')).toBeInTheDocument();
  });
});

describe('Birth Details', () => {
  it('asks for the county only for GBR, and a DBS country when the service lacks it', async () => {
    serve(
      on('GET', '/api/case-birth-details/7/', () => ({
        status: 200,
        body: {
          case: 7,
          country: 'GBR',
          country_dbs: '',
          town: 'Leeds',
          town_dbs: '',
          county: 'West Yorkshire',
          county_dbs: '',
          locked_fields: [],
        },
      })),
    );
    renderWithProviders(<BirthDetailsSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Town of birth/)).toHaveValue('Leeds'));
    expect(screen.getByLabelText(/^County of birth/)).toHaveValue('West Yorkshire');
    fireEvent.change(screen.getByLabelText(/^Country of birth/), { target: { value: 'FRA' } });
    await waitFor(() => expect(screen.queryByLabelText(/^County of birth/)).toBeNull());
    expect(await screen.findByTestId('consents')).toBeInTheDocument();
  });

  it('treats a missing record as new and creates it with the case', async () => {
    const calls = serve(
      on('POST', '/api/case-birth-details/', (c) => ({ status: 201, body: c.body })),
    );
    renderWithProviders(<BirthDetailsSection {...props} />);
    expect(await screen.findByText('Not added yet')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Country of birth/), { target: { value: 'GBR' } });
    type(/^Town of birth/, 'York');
    for (const box of within(await screen.findByTestId('consents')).getAllByRole('checkbox')) {
      fireEvent.click(box);
    }
    await waitFor(() => expect(saveButton('Birth Details')).toBeEnabled());
    fireEvent.click(saveButton('Birth Details'));
    expect(await screen.findByText('Successfully updated birth details')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      case: 7,
      country: 'GBR',
      town: 'York',
    });
    await waitFor(() => expect(screen.queryByText('Not added yet')).toBeNull());
  });
});

const passport = {
  case: 7,
  number: 'X1234567',
  country: 'GBR',
  country_dbs: '',
  dob: '1990-05-17',
  issue_date: '2020-01-10',
  expiry_date: plusYears(today, 3),
  source: 'manual',
  locked_fields: [] as string[],
};

describe('Passport', () => {
  it('is new after a 404 and existing after the 201: the next save is a PUT', async () => {
    let created: unknown = null;
    const calls = serve(
      on('GET', '/api/case-passports/7/', () =>
        created ? { status: 200, body: created } : { status: 404, body: {} },
      ),
      on('POST', '/api/case-passports/', (c) => {
        created = { ...passport, ...(c.body as object) };
        return { status: 201, body: created };
      }),
      on('PUT', '/api/case-passports/7/', (c) => ({
        status: 200,
        body: { ...passport, ...(c.body as object) },
      })),
    );
    renderWithProviders(<PassportSection {...props} />);
    expect(await screen.findByText('Not added yet')).toBeInTheDocument();
    // No message for the 404.
    expect(screen.queryByTestId('section-error')).toBeNull();
    type(/^Passport number/, 'ab123456');
    expect(screen.getByLabelText(/^Passport number/)).toHaveValue('AB123456');
    fireEvent.change(screen.getByLabelText(/^Issuing country/), { target: { value: 'GBR' } });
    const expiry = plusYears(today, 2);
    const [y, m, d] = expiry.split('-');
    const sel = screen
      .getAllByTestId('date-selector')
      .find((el) => el.textContent?.includes('Expiry date')) as HTMLElement;
    fireEvent.change(within(sel).getByTestId('date-year'), { target: { value: y } });
    fireEvent.change(within(sel).getByTestId('date-month'), {
      target: { value: String(Number(m)) },
    });
    fireEvent.change(within(sel).getByTestId('date-day'), { target: { value: String(Number(d)) } });
    for (const box of within(await screen.findByTestId('consents')).getAllByRole('checkbox')) {
      fireEvent.click(box);
    }
    await waitFor(() => expect(saveButton('Passport')).toBeEnabled());
    fireEvent.click(saveButton('Passport'));
    expect(await screen.findByText('Successfully updated passport')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      case: 7,
      number: 'AB123456',
      expiry_date: expiry,
    });
    await waitFor(() => expect(screen.queryByText('Not added yet')).toBeNull());

    type(/^Passport number/, 'AB1234567');
    for (const box of within(await screen.findByTestId('consents')).getAllByRole('checkbox')) {
      fireEvent.click(box);
    }
    await waitFor(() => expect(saveButton('Passport')).toBeEnabled());
    fireEvent.click(saveButton('Passport'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('locks a passport from the identity check: read-only, no Save, the reason shown', async () => {
    serve(
      on('GET', '/api/case-passports/7/', () => ({
        status: 200,
        body: { ...passport, source: 'idsp' },
      })),
    );
    renderWithProviders(<PassportSection {...props} />);
    await waitFor(() => expect(screen.getByLabelText(/^Passport number/)).toHaveValue('X1234567'));
    expect(screen.getByLabelText(/^Passport number/)).toHaveAttribute('readonly');
    expect(screen.getByTestId('locked-notice')).toHaveTextContent(/identity check/);
    expect(within(section('Passport')).queryByRole('button', { name: 'Save' })).toBeNull();
    // Dates are shown as 'do MMM y'.
    expect(screen.getByLabelText('Issue date')).toHaveValue('10th Jan 2020');
  });
});

describe('Driving Licence', () => {
  it('checks a UK number against the name and date of birth; Save stays disabled', async () => {
    serve(on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })));
    renderWithProviders(<DrivingLicenceSection {...props} />);
    expect(await screen.findByText('Not added yet')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Licence number/)).toBeInTheDocument());
    type(/^Licence number/, 'jones905170a99ab');
    expect(screen.getByLabelText(/^Licence number/)).toHaveValue('JONES905170A99AB');
    expect(await screen.findByText('Surname mismatch')).toBeInTheDocument();
    type(/^Licence number/, 'SMITH955170B99AB');
    expect(await screen.findByText('Forename/middlename initials mismatch')).toBeInTheDocument();
    type(/^Licence number/, 'SMITH955170A9'.padEnd(19, '9'));
    expect(await screen.findByText('Max 18 characters')).toBeInTheDocument();
    expect(saveButton('Driving Licence')).toBeDisabled();
  });
});

const sam = (over: object) => ({
  id: 1,
  case: 7,
  forename: 'Sam',
  forename_dbs: '',
  middlename: '',
  middlename_dbs: '',
  surname: 'Brown',
  surname_dbs: '',
  from_date: '2001-02-03',
  to_date: '2010-04-05',
  ...over,
});
const page = (results: unknown[], extra: object = {}) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
  ...extra,
});

describe('Other Names', () => {
  it("lists the names with 'do MMM y' dates; a name can be deleted", async () => {
    const calls = serve(
      on('GET', '/api/case-other-names/', () => ({ status: 200, body: page([sam({})]) })),
      on('DELETE', '/api/case-other-names/1/', () => ({ status: 204 })),
    );
    renderWithProviders(<OtherNamesSection {...props} />);
    const rows = await screen.findAllByTestId('other-name-row');
    expect(rows).toHaveLength(1);
    const [manual] = rows as [HTMLElement];
    expect(within(manual).getByText('3rd Feb 2001 to 5th Apr 2010')).toBeInTheDocument();
    fireEvent.click(within(manual).getByRole('button', { name: 'Delete Sam Brown' }));
    expect(await screen.findByText('Successfully deleted other name')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/case-other-names/1/')).toBe(
      true,
    );
  });

  it('adds a name: the consents show at once, and the dates must be in order', async () => {
    const calls = serve(
      on('GET', '/api/case-other-names/', () => ({ status: 200, body: page([]) })),
      on('POST', '/api/case-other-names/', (c) => ({
        status: 201,
        body: { id: 9, ...(c.body as object) },
      })),
    );
    renderWithProviders(<OtherNamesSection {...props} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add other name' }));
    const form = screen.getByRole('form', { name: 'Add other name' });
    expect(within(form).getByTestId('consents')).toBeInTheDocument();
    type(/^Forename/, 'Zoë', form);
    expect(within(form).getByLabelText(/Forename \(for DBS\)/)).toBeInTheDocument();
    type(/Forename \(for DBS\)/, 'Zoe', form);
    type(/^Surname/, 'Brown', form);
    const pickDate = (label: string, iso: string) => {
      const sel = within(form)
        .getAllByTestId('date-selector')
        .find((el) => el.textContent?.startsWith(label)) as HTMLElement;
      const [y, m, d] = iso.split('-');
      fireEvent.change(within(sel).getByTestId('date-year'), { target: { value: y } });
      fireEvent.change(within(sel).getByTestId('date-month'), {
        target: { value: String(Number(m)) },
      });
      fireEvent.change(within(sel).getByTestId('date-day'), {
        target: { value: String(Number(d)) },
      });
    };
    pickDate('From', '2012-06-01');
    pickDate('To', '2011-06-01');
    expect(
      await within(form).findByText('To date cannot be before from date.'),
    ).toBeInTheDocument();
    pickDate('To', '2013-06-01');
    for (const box of within(form).getAllByRole('checkbox')) fireEvent.click(box);
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save' })).toBeEnabled());
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully added other name')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      case: 7,
      forename: 'Zoë',
      forename_dbs: 'Zoe',
      from_date: '2012-06-01',
      to_date: '2013-06-01',
    });
  });
});

const address = (over: object) => ({
  id: 1,
  case: 7,
  country: 'GBR',
  country_dbs: '',
  line_one: '1 High Street',
  line_one_dbs: '',
  line_two: '',
  line_two_dbs: '',
  town: 'Leeds',
  town_dbs: '',
  postcode: 'LS1 1AA',
  from_date: minusMonths(today, 20),
  to_date: null,
  current: true,
  metadata: null,
  source: 'manual',
  locked_fields: [] as string[],
  ...over,
});

describe('Address History', () => {
  const history = [
    address({ id: 1, source: 'idsp' }),
    address({
      id: 2,
      line_one: '2 Low Road',
      from_date: minusMonths(today, 40),
      to_date: minusMonths(today, 18),
      current: false,
    }),
  ];

  it('shows the gap, the overlap and the locked idsp address', async () => {
    serve(on('GET', '/api/case-addresses/', () => ({ status: 200, body: page(history) })));
    renderWithProviders(<AddressHistorySection {...props} />);
    const gap = await screen.findByTestId('address-gap');
    expect(gap).toHaveTextContent('Missing address information');
    const rows = screen.getAllByTestId('address-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByText('Locked')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByRole('button')).toBeNull();
    expect(within(rows[1] as HTMLElement).getByRole('button', { name: 'Delete 2 Low Road' }));
    expect(screen.getAllByTestId('address-overlap')).toHaveLength(2);
  });

  it('fills a gap in one step through the postcode lookup', async () => {
    let lookups = 0;
    const calls = serve(
      on('GET', '/api/case-addresses/', () => ({ status: 200, body: page(history) })),
      on('GET', '/api/case-addresses/os-fake-lookup/', (c) => {
        lookups++;
        if (c.url.includes('ZZ')) return { status: 500, body: {} };
        return {
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
        };
      }),
      // No live search configured: the screen goes straight to the fake lookup.
      on('GET', '/api/case-addresses/lookup-source/', () => ({
        status: 200,
        body: { source: 'fake' },
      })),
      on('POST', '/api/case-addresses/', (c) => ({
        status: 201,
        body: { id: 3, ...(c.body as object) },
      })),
    );
    renderWithProviders(<AddressHistorySection {...props} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Fill this gap' }));
    const form = screen.getByRole('form', { name: 'Fill the gap' });
    const postcode = within(form).getByLabelText('Find an address by postcode');
    fireEvent.change(postcode, { target: { value: 'SW1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Find address' }));
    expect(await within(form).findByText('Min 5 characters')).toBeInTheDocument();
    expect(lookups).toBe(0);
    fireEvent.change(postcode, { target: { value: 'ZZ1 1ZZ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Find address' }));
    expect(await within(form).findByText('An error has occurred')).toBeInTheDocument();
    fireEvent.change(postcode, { target: { value: 'SW1A 2AA' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Find address' }));
    const choose = await within(form).findByLabelText('Choose the address');
    fireEvent.change(choose, { target: { value: '0' } });
    await waitFor(() =>
      expect(within(form).getByLabelText(/^Address line 1/)).toHaveValue('10 Downing Street'),
    );
    expect(within(form).getByLabelText(/^Town/)).toHaveValue('London');
    for (const box of within(form).getAllByRole('checkbox', { name: /I confirm/ })) {
      fireEvent.click(box);
    }
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save' })).toBeEnabled());
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully added address')).toBeInTheDocument();
    // Never a live token asked for (a 404 in every lookup before).
    expect(calls.some((c) => c.url.includes('os-datahub-token'))).toBe(false);
    expect(lookups).toBe(2);
    const post = calls.find((c) => c.method === 'POST' && c.url === '/api/case-addresses/');
    expect(post?.body).toMatchObject({
      case: 7,
      line_one: '10 Downing Street',
      postcode: 'SW1A 2AA',
      source: 'OS',
      from_date: minusMonths(today, 60),
      current: false,
    });
  });
});

describe('Address lookup', () => {
  const history = [address({ id: 1 })];

  it('searches OS Places with the bearer token when the server gives one, and keeps it', async () => {
    const calls = serve(
      on('GET', '/api/case-addresses/', () => ({ status: 200, body: page(history) })),
      on('GET', '/api/case-addresses/lookup-source/', () => ({
        status: 200,
        body: { source: 'live' },
      })),
      on('POST', '/api/case-addresses/os-datahub-token/', () => ({
        status: 200,
        body: { access_token: 'tok-123', expires_in: 299 },
      })),
      on('GET', 'https://api.os.uk/search/places/v1/postcode', () => ({
        status: 200,
        body: {
          results: [
            {
              DPA: {
                UPRN: '1',
                ADDRESS: 'FLAT 2, THE OLD MILL, YORK, YO1 7HH',
                SUB_BUILDING_NAME: 'FLAT 2',
                BUILDING_NAME: 'THE OLD MILL',
                THOROUGHFARE_NAME: 'MILL LANE',
                POST_TOWN: 'YORK',
                POSTCODE: 'YO1 7HH',
              },
            },
          ],
        },
      })),
    );
    renderWithProviders(<AddressHistorySection {...props} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add address' }));
    const form = screen.getByRole('form', { name: 'Add address' });
    for (let i = 0; i < 2; i++) {
      // Choosing an address clears the lookup for the next search.
      const postcode = within(form).getByLabelText('Find an address by postcode');
      fireEvent.change(postcode, { target: { value: 'YO1 7HH' } });
      fireEvent.click(within(form).getByRole('button', { name: 'Find address' }));
      const choose = await within(form).findByLabelText('Choose the address');
      fireEvent.change(choose, { target: { value: '0' } });
    }
    await waitFor(() =>
      expect(within(form).getByLabelText(/^Address line 1/)).toHaveValue('Flat 2 The Old Mill'),
    );
    expect(within(form).getByLabelText(/^Address line 2/)).toHaveValue('Mill Lane');
    const searches = calls.filter((c) => c.url.startsWith('https://api.os.uk/'));
    expect(searches).toHaveLength(2);
    expect(searches[0]?.url).toBe('https://api.os.uk/search/places/v1/postcode?postcode=YO1+7HH');
    expect(searches[0]?.headers.authorization).toBe('Bearer tok-123');
    // The token is asked for once, then kept until shortly before it expires.
    expect(calls.filter((c) => c.url.endsWith('os-datahub-token/'))).toHaveLength(1);
    expect(calls.some((c) => c.url.includes('os-fake-lookup'))).toBe(false);
  });

  it("says 'An error has occurred' when the token cannot be had; the address can still be typed", async () => {
    serve(
      on('GET', '/api/case-addresses/', () => ({ status: 200, body: page(history) })),
      on('GET', '/api/case-addresses/lookup-source/', () => ({
        status: 200,
        body: { source: 'live' },
      })),
      on('POST', '/api/case-addresses/os-datahub-token/', () => ({ status: 502, body: {} })),
    );
    renderWithProviders(<AddressHistorySection {...props} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add address' }));
    const form = screen.getByRole('form', { name: 'Add address' });
    fireEvent.change(within(form).getByLabelText('Find an address by postcode'), {
      target: { value: 'YO1 7HH' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Find address' }));
    expect(await within(form).findByText('An error has occurred')).toBeInTheDocument();
    type(/^Address line 1/, '4 Mill Lane', form);
    expect(within(form).getByLabelText(/^Address line 1/)).toHaveValue('4 Mill Lane');
  });
});

describe('Case data panel', () => {
  it('shows the six sections, read-only without the right to change the case', async () => {
    setSession(productIn(product({ session_permissions: ['cases.view_case'] })));
    serve(
      on('GET', '/api/case-basic-details/7/', () => ({ status: 200, body: basic })),
      on('GET', '/api/case-other-names/', () => ({ status: 200, body: page([sam({})]) })),
      on('GET', '/api/case-addresses/', () => ({ status: 200, body: page([]) })),
    );
    renderWithProviders(<CaseDataPanel caseId={7} />);
    for (const name of [
      'Basic Details',
      'Birth Details',
      'Other Names',
      'Address History',
      'Passport',
      'Driving Licence',
    ]) {
      expect(await screen.findByRole('region', { name })).toBeInTheDocument();
    }
    await screen.findAllByTestId('other-name-row');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});
