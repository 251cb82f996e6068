import type { CaseDocumentOut } from '@kestrel/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { product, productIn } from '../../test/sessions';
import { AddressHistoryPanel } from './address-history-panel';
import { BasicDetailsPanel } from './basic-details-panel';
import { DocumentCollectionPanel } from './document-collection-panel';
import type { Audience, PanelActivity } from './panel-kit';

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const BASES: Record<Audience, string> = { customer: '/api/', ops: '/api/ops/', subject: '/api/s/' };
const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];
const activity = (code: string, state = 'ca-complete'): PanelActivity => ({
  id: 31,
  state,
  activity_type: code,
  case: 7,
});
const page = <T,>(results: T[], extra: object = {}) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
  ...extra,
});

/** Answers each path under the audience's prefix from `data` (404 for anything else). */
function serve(audience: Audience, data: Record<string, unknown>) {
  return mockFetch((call: Call) => {
    const path = call.url.split('?')[0] ?? '';
    if (!path.startsWith(BASES[audience])) return { status: 403, body: {} };
    const key = path.slice(BASES[audience].length);
    return key in data ? { status: 200, body: data[key] } : { status: 404, body: {} };
  });
}

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
  postcode: 'LS1 4AP',
  from_date: '2015-01-01',
  to_date: null,
  current: true,
  metadata: null,
  source: 'manual',
  locked_fields: [],
  ...over,
});

describe('address history panel (spec point 2)', () => {
  it.each(AUDIENCES)(
    'shows the %s the table: address joined, country, from, to or Current',
    async (audience) => {
      serve(audience, {
        'case-addresses/': page(
          [
            address({}),
            address({
              id: 2,
              line_one: 'Flat 2',
              line_two: '5 Mill Lane',
              town: 'York',
              postcode: 'YO1 7HH',
              from_date: '2010-03-01',
              to_date: '2014-12-31',
              current: false,
            }),
          ],
          { gaps: [{ from_date: '2014-12-31', to_date: '2015-01-01', message: 'x' }] },
        ),
      });
      renderWithProviders(
        <AddressHistoryPanel activity={activity('address-history')} audience={audience} />,
      );
      const table = await screen.findByRole('table', { name: 'Address history' });
      const rows = within(table).getAllByRole('row');
      expect(rows[0]).toHaveTextContent('AddressCountryFromTo');
      expect(rows[1]).toHaveTextContent(
        '1 High Street, Leeds, LS1 4APUnited Kingdom1st Jan 2015Current',
      );
      expect(rows[2]).toHaveTextContent('Flat 2, 5 Mill Lane, York, YO1 7HH');
      expect(rows[2]).toHaveTextContent('31st Dec 2014');
      // the gaps are the staff's to see
      const gaps = screen.queryByTestId('address-gaps');
      if (audience === 'subject') expect(gaps).toBeNull();
      else expect(gaps).toHaveTextContent('Missing address information');
    },
  );

  it('says when nothing was given, and when the history cannot be read', async () => {
    serve('customer', { 'case-addresses/': page([], { gaps: [] }) });
    const first = renderWithProviders(
      <AddressHistoryPanel activity={activity('address-history')} audience="customer" />,
    );
    expect(await screen.findByText('No address history has been given yet.')).toBeInTheDocument();
    first.unmount();
    serve('customer', {});
    renderWithProviders(
      <AddressHistoryPanel activity={activity('address-history')} audience="customer" />,
    );
    expect(await screen.findByText('The address history could not be loaded.')).toBeInTheDocument();
  });
});

const BASIC = {
  case: 7,
  gender: 'female',
  title: 'Ms',
  forename: 'Ada',
  forename_dbs: 'Augusta',
  middlename: 'King',
  middlename_dbs: '',
  surname: 'Lovelace',
  surname_dbs: 'Byron',
  email: 'ada@example.test',
  email_dbs: '',
  dob: '1985-12-10',
  phone_number: '+447911123456',
  nin: 'AB123456C',
  nationality: 'GBR',
  online_idv: false,
  locked_fields: [],
};
const COMPLETE = {
  'case-basic-details/7/': BASIC,
  'case-birth-details/7/': {
    case: 7,
    country: 'GBR',
    country_dbs: '',
    town: 'London',
    town_dbs: '',
    county: 'Greater London',
    county_dbs: '',
    locked_fields: [],
  },
  'case-other-names/': page([
    {
      id: 3,
      case: 7,
      forename: 'Ada',
      forename_dbs: '',
      middlename: '',
      middlename_dbs: '',
      surname: 'Byron',
      surname_dbs: '',
      from_date: '1985-12-10',
      to_date: '2005-06-01',
    },
  ]),
  'case-passports/7/': {
    case: 7,
    number: '123456789',
    country: 'GBR',
    country_dbs: '',
    dob: '1985-12-10',
    issue_date: '2020-01-02',
    expiry_date: '2030-01-02',
    source: 'manual',
    locked_fields: [],
  },
  'case-driving-licences/7/': {
    case: 7,
    licence_type: 'photo',
    number: 'LOVEL812105A99AB',
    country: 'GBR',
    country_dbs: '',
    dob: '1985-12-10',
    issue_date: '2019-03-04',
    expiry_date: '2029-03-04',
    source: 'manual',
    no_surname: false,
    locked_fields: [],
  },
  'case-dbs-update-details/7/': {
    case: 7,
    certificate_number: '001234567890',
    surname: 'Lovelace',
    dob: '1985-12-10',
  },
};

describe('basic details panel (spec point 2)', () => {
  it.each(AUDIENCES)(
    'shows the %s every section, the DBS update details to staff only',
    async (audience) => {
      serve(audience, COMPLETE);
      renderWithProviders(
        <BasicDetailsPanel activity={activity('basic-details')} audience={audience} />,
      );
      const personal = await screen.findByTestId('basic-details-personal');
      for (const text of [
        'Ms',
        'Ada',
        'King',
        'Lovelace',
        'Augusta',
        'Byron',
        'British',
        'Female',
        '10th Dec 1985',
        'AB123456C',
      ]) {
        expect(personal).toHaveTextContent(text);
      }
      expect(screen.getByTestId('basic-details-birth')).toHaveTextContent('Greater London');
      expect(
        within(screen.getByTestId('basic-details-other-names')).getByRole('table', {
          name: 'Other names',
        }),
      ).toHaveTextContent('Ada Byron10th Dec 19851st Jun 2005');
      expect(screen.getByTestId('basic-details-passport')).toHaveTextContent(
        'Number123456789CountryUnited KingdomIssue date2nd Jan 2020Expiry date2nd Jan 2030',
      );
      expect(screen.getByTestId('basic-details-licence')).toHaveTextContent('LOVEL812105A99AB');
      const update = screen.queryByTestId('basic-details-dbs-update');
      if (audience === 'subject') expect(update).toBeNull();
      else expect(update).toHaveTextContent('001234567890');
    },
  );

  it('shows what is given and says what is not (partial details)', async () => {
    serve('customer', {
      'case-basic-details/7/': { ...BASIC, middlename: '', forename_dbs: '', nin: '' },
      'case-other-names/': page([]),
    });
    renderWithProviders(
      <BasicDetailsPanel activity={activity('basic-details')} audience="customer" />,
    );
    const personal = await screen.findByTestId('basic-details-personal');
    expect(personal).toHaveTextContent('Lovelace');
    expect(screen.getByTestId('basic-details-other-names')).toHaveTextContent('No other names.');
    for (const id of ['birth', 'passport', 'licence', 'dbs-update']) {
      expect(screen.getByTestId(`basic-details-${id}`)).toHaveTextContent('Not given.');
    }
  });

  it('says when the details cannot be read (missing)', async () => {
    mockFetch(() => ({ status: 500, body: {} }));
    renderWithProviders(
      <BasicDetailsPanel activity={activity('basic-details')} audience="subject" />,
    );
    expect(await screen.findByText('The basic details could not be loaded.')).toBeInTheDocument();
  });
});

function doc(id: number, prefix: string, over: Partial<CaseDocumentOut> = {}): CaseDocumentOut {
  const base = `${prefix}case-documents/${id}/`;
  return {
    id,
    case: 7,
    case_activity: 31,
    collector: 'identity',
    document_type: 'Passport',
    document_type_code: 'passport',
    group: '1',
    route_index: 1,
    source: 'manual',
    extension: 'png',
    content_url: `${base}download/`,
    thumbnail_url: `${base}thumbnail/`,
    rejected: false,
    rejection_reason: '',
    rejected_at: null,
    rejected_by: '',
    confirmations: [],
    confirmed: true,
    pages: [
      {
        page: 1,
        original_name: 'p1.png',
        content_type: 'image/png',
        extension: 'png',
        size: 100,
        converted_from: null,
        content_url: `${base}download/`,
        thumbnail_url: `${base}thumbnail/`,
        preview: 'ready',
      },
    ],
    uploaded_by: 'SubjectUser',
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    ...over,
  };
}

describe('document collection panel (spec point 2)', () => {
  const documents = (prefix: string) =>
    page([
      doc(1, prefix),
      doc(2, prefix, { rejected: true, document_type: 'Utility bill', rejection_reason: 'Old.' }),
      doc(3, prefix, {
        document_type: 'Driving licence',
        source: 'idsp',
        group: '2a',
        route_index: 2,
      }),
      doc(4, prefix, {
        collector: 'right-to-work',
        document_type: 'Birth certificate',
        group: 'B1',
      }),
    ]);

  it.each(AUDIENCES)('shows the %s the non-rejected documents by collector', async (audience) => {
    if (audience !== 'subject') {
      setSession(productIn(product({ session_permissions: ['cases.change_caseactivity'] })));
    }
    const prefix = BASES[audience];
    serve(audience, { 'case-documents/': documents(prefix) });
    renderWithProviders(
      <DocumentCollectionPanel
        activity={activity('document-collection', 'ca-awaiting-ops')}
        audience={audience}
      />,
    );
    const cards = await screen.findAllByTestId('collected-document');
    expect(cards).toHaveLength(3);
    expect(screen.queryByText('Utility bill')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Identity documents' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Right to work documents' })).toBeInTheDocument();
    // group and route number, hidden for the identity provider's
    expect(cards[0]).toHaveTextContent('Group 1');
    expect(cards[0]).toHaveTextContent('Route 1');
    expect(cards[1]).not.toHaveTextContent('Route 2');
    expect(cards[1]).toHaveTextContent('From the identity service provider');
    // thumbnails and Open through the audience's own download path
    const open = within(cards[0] as HTMLElement).getByRole('link', { name: /Open/ });
    expect(open.getAttribute('href')).toContain(`${prefix}case-documents/1/download/`);
    const copy = screen.queryAllByRole('button', { name: /Copy document id/ });
    const reject = screen.queryAllByRole('button', { name: /^Reject / });
    if (audience === 'subject') {
      expect(copy).toHaveLength(0);
      expect(reject).toHaveLength(0);
      expect(screen.queryByTestId('rejected-documents')).toBeNull();
    } else {
      expect(copy).toHaveLength(3);
      expect(reject).toHaveLength(3);
      expect(screen.getByTestId('rejected-documents')).toHaveTextContent(
        '1 document was rejected and awaits a replacement from the person.',
      );
      expect(screen.getByRole('button', { name: 'Accept documents' })).toBeInTheDocument();
    }
  });

  it('says when no document was uploaded (missing), and offers no review without the permission', async () => {
    setSession(productIn(product({ session_permissions: ['cases.view_case'] })));
    serve('customer', { 'case-documents/': page([]) });
    renderWithProviders(
      <DocumentCollectionPanel
        activity={activity('document-collection', 'ca-awaiting-ops')}
        audience="customer"
      />,
    );
    expect(await screen.findByText('No documents have been uploaded yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept documents' })).toBeNull();
  });

  it('rejects a document with a reason (required) through the reader’s own path', async () => {
    setSession(productIn(product({ session_permissions: ['cases.change_caseactivity'] })));
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? { status: 200, body: doc(1, '/api/ops/', { rejected: true }) }
        : { status: 200, body: page([doc(1, '/api/ops/')]) },
    );
    renderWithProviders(
      <DocumentCollectionPanel
        activity={activity('document-collection', 'ca-awaiting-ops')}
        audience="ops"
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Reject Passport' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject document' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject document' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'The photo is blurred.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject document' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/ops/case-documents/1/reject/',
      body: { reason: 'The photo is blurred.' },
    });
    expect(await screen.findByText('Document rejected')).toBeInTheDocument();
  });

  it('accepts the documents once they wait for the review (the activity completes)', async () => {
    setSession(productIn(product({ session_permissions: ['cases.change_caseactivity'] })));
    const calls = mockFetch((call) =>
      call.method === 'PATCH'
        ? { status: 200, body: {} }
        : { status: 200, body: page([doc(1, '/api/')]) },
    );
    renderWithProviders(
      <DocumentCollectionPanel
        activity={activity('document-collection', 'ca-awaiting-ops')}
        audience="customer"
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Accept documents' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: '/api/case-activities/31/',
      body: { state: 'ca-complete' },
    });
  });
});
