import { GUIDANCE_LINKS } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { ActivityConfigAccordion } from './activity-config-accordion';
import { ActivityResult } from './activity-result';
import { AdultFirstPanel } from './adult-first-panel';
import { DbsResultPanel } from './dbs-result-panel';
import type { Audience, PanelActivity } from './panel-kit';
import type { DbsDetails } from './results-api';
import { UpdateServicePanel } from './update-service-panel';

/*
 * Issue 17 (Checks, part 1): every panel for each audience with complete, partial and missing
 * data, asserting the spec's texts (spec point 2). Complements panels.test.tsx.
 */

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];
const DASH = '—';

const inRouter = (ui: React.ReactElement) => renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>);

const activity = (over: Partial<PanelActivity> = {}): PanelActivity => ({
  id: 7,
  state: 'ca-in-progress',
  activity_type: 'dbs-basic',
  config: {},
  result_data: {},
  processing_data: {},
  case: { id: 14 },
  ...over,
});

/** The shown value of a labelled fact (a dash when empty), found inside `scope`. */
function fact(scope: HTMLElement, label: string): string | null | undefined {
  // the label is a <p>, its value the <div> after it (components/fact.tsx)
  return within(scope).getByText(label, { selector: 'p' }).nextElementSibling?.textContent;
}

afterEach(() => resetSession());

// ---------------------------------------------------------------------------------------------
// Activity configuration accordion
// ---------------------------------------------------------------------------------------------

const CONFIG_LABELS = [
  'Purpose',
  'Employment sector',
  'Employer name',
  'Position',
  'Online certificate email',
  'Paper certificate',
  'Workforce',
  'Volunteer',
  'Working with vulnerable adults',
  'Working with children',
  'Working at home address',
] as const;

const fullConfig = {
  purpose: 'employment',
  employment_sector: 'taxi-private-hire',
  employer_name_source: 'custom',
  employer_name: 'Acme Cabs Ltd',
  position: 'Driver',
  online_cert_email: 'hr@acme.test',
  paper_cert: true,
  paper_cert_name: 'HR Team',
  paper_cert_department: 'People',
  paper_cert_line_one: '1 High Street',
  paper_cert_line_two: 'Floor 2',
  paper_cert_town: 'Leeds',
  paper_cert_postcode: 'LS1 1AA',
  workforce: 'A',
  volunteer: true,
  adult_barred_list: true,
  child_barred_list: false,
  working_at_home_address: true,
};

async function openConfig(config: Record<string, unknown>) {
  inRouter(<ActivityConfigAccordion config={config} />);
  fireEvent.click(screen.getByRole('button', { name: 'Activity configuration' }));
  await screen.findByText('Purpose');
  return screen.getByTestId('activity-config');
}

describe('activity configuration accordion: every field', () => {
  it('complete config: each field with its value and the paper certificate address block', async () => {
    const box = await openConfig(fullConfig);
    expect(fact(box, 'Purpose')).toBe('Employment');
    expect(fact(box, 'Employment sector')).toBe('Taxi and private hire');
    expect(fact(box, 'Employer name')).toBe('Acme Cabs Ltd');
    expect(fact(box, 'Position')).toBe('Driver');
    expect(fact(box, 'Online certificate email')).toBe('hr@acme.test');
    expect(fact(box, 'Paper certificate')).toBe('Yes');
    expect(fact(box, 'Workforce')).toBe('A Adult');
    expect(fact(box, 'Volunteer')).toBe('Yes');
    expect(fact(box, 'Working with vulnerable adults')).toBe('Yes');
    expect(fact(box, 'Working with children')).toBe('No');
    expect(fact(box, 'Working at home address')).toBe('Yes');
    const address = within(box).getByTestId('paper-cert-address');
    expect(within(address).getByText('Paper certificate address')).toBeInTheDocument();
    const lines = [...address.querySelectorAll('p')].map((p) => p.textContent).slice(1);
    expect(lines).toEqual(['HR Team', 'People', '1 High Street', 'Floor 2', 'Leeds', 'LS1 1AA']);
  });

  it("the other purpose typed in, and the 'segment employer name' source (the spec's words)", async () => {
    const box = await openConfig({
      ...fullConfig,
      purpose: 'other',
      other_purpose: 'Board member',
      employer_name_source: 'segment',
      employer_name: 'Ignored Ltd',
    });
    expect(fact(box, 'Purpose')).toBe('Board member');
    expect(fact(box, 'Employer name')).toBe('segment employer name');
    expect(within(box).queryByText('Ignored Ltd')).toBeNull();
  });

  it.each([
    ['O', 'O Other'],
    ['C', 'C Child'],
    ['A', 'A Adult'],
    ['CA', 'CA Child and Adult'],
  ])('workforce %s shows as %s', async (workforce, shown) => {
    const box = await openConfig({ ...fullConfig, workforce });
    expect(fact(box, 'Workforce')).toBe(shown);
  });

  it('no paper certificate: No, and no address block even with address fields', async () => {
    const box = await openConfig({
      ...fullConfig,
      paper_cert: false,
      volunteer: false,
      adult_barred_list: false,
      child_barred_list: true,
      working_at_home_address: false,
    });
    expect(fact(box, 'Paper certificate')).toBe('No');
    expect(within(box).queryByTestId('paper-cert-address')).toBeNull();
    expect(within(box).queryByText('Paper certificate address')).toBeNull();
    expect(within(box).queryByText('1 High Street')).toBeNull();
    expect(fact(box, 'Volunteer')).toBe('No');
    expect(fact(box, 'Working with vulnerable adults')).toBe('No');
    expect(fact(box, 'Working with children')).toBe('Yes');
    expect(fact(box, 'Working at home address')).toBe('No');
  });

  it('a paper certificate address whose lines repeat still shows every line', async () => {
    const box = await openConfig({
      paper_cert: true,
      paper_cert_name: 'London',
      paper_cert_line_one: '1 High Street',
      paper_cert_town: 'London',
      paper_cert_postcode: 'E1 1AA',
    });
    const address = within(box).getByTestId('paper-cert-address');
    expect(within(address).getAllByText('London')).toHaveLength(2);
  });

  it('missing data (empty config): every field shows a dash and there is no address block', async () => {
    const box = await openConfig({});
    for (const label of CONFIG_LABELS) expect(fact(box, label)).toBe(DASH);
    expect(within(box).queryByTestId('paper-cert-address')).toBeNull();
  });

  it('partial data: other purpose not typed, custom employer without a name, paper without address', async () => {
    const box = await openConfig({
      purpose: 'other',
      employer_name_source: 'custom',
      employment_sector: 'mining',
      paper_cert: true,
      workforce: 'X',
      volunteer: 'yes',
      child_barred_list: true,
    });
    expect(fact(box, 'Purpose')).toBe(DASH);
    expect(fact(box, 'Employer name')).toBe(DASH);
    // a sector the list does not know shows as stored
    expect(fact(box, 'Employment sector')).toBe('mining');
    expect(fact(box, 'Paper certificate')).toBe('Yes');
    expect(within(box).queryByTestId('paper-cert-address')).toBeNull();
    expect(fact(box, 'Workforce')).toBe(DASH);
    // only a real boolean is a yes or no
    expect(fact(box, 'Volunteer')).toBe(DASH);
    expect(fact(box, 'Working with children')).toBe('Yes');
    expect(fact(box, 'Position')).toBe(DASH);
    expect(fact(box, 'Online certificate email')).toBe(DASH);
  });

  it('the activity result shows the accordion only for a criminal-record check with a config', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    const { unmount } = inRouter(
      <ActivityResult activity={activity({ config: {} })} audience="customer" />,
    );
    expect(screen.queryByTestId('activity-config')).toBeNull();
    unmount();
    const second = inRouter(
      <ActivityResult activity={activity({ config: null })} audience="customer" />,
    );
    expect(screen.queryByTestId('activity-config')).toBeNull();
    second.unmount();
    inRouter(
      <ActivityResult activity={activity({ config: { workforce: 'C' } })} audience="subject" />,
    );
    expect(screen.getByRole('button', { name: 'Activity configuration' })).toBeInTheDocument();
  });
});

// ---------------------------------------------------------------------------------------------
// Criminal-record panel as dbs-basic and dbs-standard
// ---------------------------------------------------------------------------------------------

const DATE_LABELS: readonly (readonly [string, string])[] = [
  ['Received date', '1st Mar 2026'],
  ['Police computer search date', '2nd Mar 2026'],
  ['Certificate assembled', '3rd Mar 2026'],
  ['Certificate despatched', '11th Mar 2026'],
  ['Certificate printed', '12th Mar 2026'],
  ['Barred list search date', '21st Mar 2026'],
  ['Records held date', '22nd Mar 2026'],
];

const completeResult = {
  applicant: { title: 'Mr', forename: 'Bo', surname: 'Kim', dob: '1985-11-23' },
  application: {
    status: 'Completed',
    reference: 'B-200',
    received_date: '2026-03-01',
    police_computer_search_date: '2026-03-02',
    certificate_assembled_date: '2026-03-03',
    certificate_despatched_date: '2026-03-11',
    certificate_printed_date: '2026-03-12',
    barred_list_search_date: '2026-03-21',
    records_held_date: '2026-03-22',
    verified_by: 'Vera Verifier',
    countersigned_by: 'Colin Counter',
  },
  disclosure: {
    status: 'records-held',
    certificate_number: '009876543210',
    issue_date: '2026-03-23',
    manual_certificate: false,
  },
  tracking: [{ stage: 'Certificate printed', status: 'Completed', completed_date: '2026-03-12' }],
};

const partialResult = {
  application: {
    status: 'Submitted',
    e_number: 'E-555',
    received_date: '2026-03-01',
    police_computer_search_date: '2026-03-02',
  },
  tracking: [
    { stage: 'Application received', status: 'Completed', completed_date: '2026-03-01' },
    { stage: 'Police records checked', status: 'In progress' },
  ],
};

const FALLBACKS = [
  'DBS Receipts not yet available',
  'DBS Results not yet available',
  'DBS Tracking not yet available',
  'This application is being processed by the DBS.',
  'This application is awaiting verification.',
  'This application is awaiting countersigning.',
  'Awaiting top-up payment',
];

for (const kind of ['dbs-basic', 'dbs-standard'] as const) {
  describe(`criminal-record panel as ${kind}`, () => {
    for (const audience of AUDIENCES) {
      const subject = audience === 'subject';

      it(`${audience}: complete data shows every application date as 'do MMM y', the result and no fallbacks`, () => {
        inRouter(
          <DbsResultPanel
            audience={audience}
            activity={activity({ activity_type: kind, result_data: completeResult })}
            dbsDetails={{
              state: 'countersigned',
              idv_option: 'in-person',
              in_person_expected_date: '2026-02-28',
              discrepancy_notes: 'Old surname on licence',
              verified_by: 'Dana Details',
              countersigned_by: 'Cara Details',
            }}
          />,
        );
        expect(screen.getByText('Mr Bo Kim')).toBeInTheDocument();
        expect(screen.getByText('23rd Nov 1985')).toBeInTheDocument();
        expect(screen.getByText('28th Feb 2026')).toBeInTheDocument();
        expect(fact(document.body, 'Verification option')).toBe('In person, showing my documents');
        const app = screen.getByTestId('dbs-application');
        expect(fact(app, 'Status')).toBe('Completed');
        expect(fact(app, 'Reference')).toBe('B-200');
        for (const [label, shown] of DATE_LABELS) expect(fact(app, label)).toBe(shown);
        if (subject) {
          expect(within(app).queryByText('Verified by')).toBeNull();
          expect(within(app).queryByText('Countersigned by')).toBeNull();
          expect(screen.queryByText('Discrepancy notes')).toBeNull();
          for (const hidden of [
            'Vera Verifier',
            'Colin Counter',
            'Dana Details',
            'Cara Details',
            'Old surname on licence',
          ]) {
            expect(screen.queryByText(hidden)).toBeNull();
          }
        } else {
          // the result's names come first, the DBS details' only when the result has none
          expect(fact(app, 'Verified by')).toBe('Vera Verifier');
          expect(fact(app, 'Countersigned by')).toBe('Colin Counter');
          expect(screen.getByText('Old surname on licence')).toBeInTheDocument();
        }
        const disclosure = screen.getByTestId('dbs-disclosure');
        expect(fact(disclosure, 'Status')).toBe('Records held');
        expect(fact(disclosure, 'Certificate number')).toBe('009876543210');
        expect(fact(disclosure, 'Issue date')).toBe('23rd Mar 2026');
        expect(fact(disclosure, 'Manual certificate')).toBe('No');
        expect(
          within(disclosure).getByText('This is not a certificate issued by the DBS'),
        ).toBeInTheDocument();
        const tracking = screen.getByTestId('dbs-tracking');
        const row = within(tracking).getByRole('row', { name: /Certificate printed/ });
        expect(within(row).getByText('12th Mar 2026')).toBeInTheDocument();
        for (const text of FALLBACKS) expect(screen.queryByText(text)).toBeNull();
      });

      it(`${audience}: partial data (receipt and two dates) shows dashes for the rest and the processing line`, () => {
        inRouter(
          <DbsResultPanel
            audience={audience}
            activity={activity({ activity_type: kind, result_data: partialResult })}
            dbsDetails={{ state: 'countersigned', verified_by: 'Dana Details' }}
          />,
        );
        expect(screen.getByTestId('dbs-status')).toHaveTextContent(
          'This application is being processed by the DBS.',
        );
        const app = screen.getByTestId('dbs-application');
        expect(fact(app, 'Status')).toBe('Submitted');
        // no reference yet: the e-number stands in
        expect(fact(app, 'Reference')).toBe('E-555');
        expect(fact(app, 'Received date')).toBe('1st Mar 2026');
        expect(fact(app, 'Police computer search date')).toBe('2nd Mar 2026');
        for (const [label] of DATE_LABELS.slice(2)) expect(fact(app, label)).toBe(DASH);
        if (subject) {
          expect(within(app).queryByText('Verified by')).toBeNull();
          expect(within(app).queryByText('Countersigned by')).toBeNull();
          expect(screen.queryByText('Dana Details')).toBeNull();
        } else {
          // the DBS details' verifier when the result names none; no countersigner yet
          expect(fact(app, 'Verified by')).toBe('Dana Details');
          expect(fact(app, 'Countersigned by')).toBe(DASH);
        }
        expect(screen.getByText('DBS Results not yet available')).toBeInTheDocument();
        expect(screen.queryByText('Manual certificate')).toBeNull();
        expect(screen.queryByText('This is not a certificate issued by the DBS')).toBeNull();
        expect(screen.queryByText('DBS Receipts not yet available')).toBeNull();
        expect(screen.queryByText('DBS Tracking not yet available')).toBeNull();
        const tracking = screen.getByTestId('dbs-tracking');
        const open = within(tracking).getByRole('row', { name: /Police records checked/ });
        expect(within(open).getByText('In progress')).toBeInTheDocument();
        expect(within(open).getByText(DASH)).toBeInTheDocument();
      });

      it(`${audience}: missing data shows the three 'not yet available' fallbacks and nothing else`, () => {
        for (const result_data of [null, {}, { application: 'garbage' }]) {
          const { unmount } = inRouter(
            <DbsResultPanel
              audience={audience}
              activity={activity({ activity_type: kind, result_data, processing_data: null })}
            />,
          );
          expect(
            within(screen.getByTestId('dbs-application')).getByText(
              'DBS Receipts not yet available',
            ),
          ).toBeInTheDocument();
          expect(
            within(screen.getByTestId('dbs-disclosure')).getByText('DBS Results not yet available'),
          ).toBeInTheDocument();
          expect(
            within(screen.getByTestId('dbs-tracking')).getByText('DBS Tracking not yet available'),
          ).toBeInTheDocument();
          for (const label of DATE_LABELS.map(([l]) => l)) {
            expect(screen.queryByText(label)).toBeNull();
          }
          expect(screen.queryByText('Verified by')).toBeNull();
          expect(screen.queryByText('Countersigned by')).toBeNull();
          expect(screen.queryByText('Applicant details')).toBeNull();
          expect(screen.queryByText('Verification details')).toBeNull();
          expect(screen.queryByText('Manual certificate')).toBeNull();
          expect(screen.queryByText('This is not a certificate issued by the DBS')).toBeNull();
          expect(screen.queryByTestId('dbs-status')).toBeNull();
          expect(screen.queryByTestId('dbs-top-up')).toBeNull();
          unmount();
        }
      });

      it(`${audience}: awaiting verification, then countersigning, then being processed`, () => {
        const view = (
          details: DbsDetails,
          result_data: Record<string, unknown> = {},
          state = 'ca-in-progress',
        ) =>
          inRouter(
            <DbsResultPanel
              audience={audience}
              activity={activity({ activity_type: kind, result_data, state })}
              dbsDetails={details}
            />,
          );
        // a cancelled application has no status line, whatever it holds
        let v = view({ state: 'countersigned' }, partialResult, 'ca-cancelled');
        expect(screen.queryByTestId('dbs-status')).toBeNull();
        v.unmount();
        if (kind === 'dbs-basic') {
          // a basic disclosure is neither verified nor countersigned by the registered body
          v = view({ state: 'pending' });
          expect(screen.queryByTestId('dbs-status')).toBeNull();
          v.unmount();
          view({ state: 'verified' }, partialResult);
          expect(screen.getByTestId('dbs-status')).toHaveTextContent(
            'This application is being processed by the DBS.',
          );
          return;
        }
        v = view({ state: 'pending' });
        expect(screen.getByTestId('dbs-status')).toHaveTextContent(
          'This application is awaiting verification.',
        );
        v.unmount();
        // verification comes before the receipt's 'being processed'
        v = view({ state: 'pending' }, partialResult);
        expect(screen.getByTestId('dbs-status')).toHaveTextContent(
          'This application is awaiting verification.',
        );
        expect(screen.queryByText('This application is being processed by the DBS.')).toBeNull();
        v.unmount();
        v = view({ state: 'verified' });
        expect(screen.getByTestId('dbs-status')).toHaveTextContent(
          'This application is awaiting countersigning.',
        );
        v.unmount();
        v = view({ state: 'countersigned' }, partialResult);
        expect(screen.getByTestId('dbs-status')).toHaveTextContent(
          'This application is being processed by the DBS.',
        );
        v.unmount();
        // once the result is in, no status line at all
        view({ state: 'pending' }, completeResult);
        expect(screen.queryByTestId('dbs-status')).toBeNull();
      });

      it(`${audience}: 'Awaiting top-up payment' with its payment link`, () => {
        inRouter(
          <DbsResultPanel
            audience={audience}
            activity={activity({
              activity_type: kind,
              processing_data: subject
                ? null
                : { top_up: { status: 'awaiting', amount_pence: 900, payment_intent: 42 } },
              result_data: subject
                ? { top_up: { status: 'awaiting', amount: 900, payment_id: 42 } }
                : {},
            })}
          />,
        );
        const box = screen.getByTestId('dbs-top-up');
        expect(within(box).getByText('Awaiting top-up payment')).toBeInTheDocument();
        expect(within(box).getByText('Amount due: £9.00')).toBeInTheDocument();
        expect(within(box).getByRole('link', { name: 'Pay the top-up' })).toHaveAttribute(
          'href',
          '/payment-portal/42',
        );
      });
    }

    it('the manual certificate flag: Yes, No, or a dash when not given', () => {
      for (const [manual, shown] of [
        [true, 'Yes'],
        [false, 'No'],
        [null, DASH],
      ] as const) {
        const { unmount } = inRouter(
          <DbsResultPanel
            audience="customer"
            activity={activity({
              activity_type: kind,
              result_data: {
                disclosure: { certificate_number: '001', manual_certificate: manual },
              },
            })}
          />,
        );
        const disclosure = screen.getByTestId('dbs-disclosure');
        expect(fact(disclosure, 'Manual certificate')).toBe(shown);
        expect(fact(disclosure, 'Status')).toBe(DASH);
        expect(fact(disclosure, 'Issue date')).toBe(DASH);
        expect(
          within(disclosure).getByText('This is not a certificate issued by the DBS'),
        ).toBeInTheDocument();
        unmount();
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Guidance link and notes accordion in the activity result
// ---------------------------------------------------------------------------------------------

describe('guidance link (GUIDANCE_LINKS)', () => {
  for (const audience of ['customer', 'ops'] as const) {
    it.each([
      ['dbs-basic', GUIDANCE_LINKS.basic],
      ['dbs-standard', GUIDANCE_LINKS.identity],
      ['dbs-enhanced', GUIDANCE_LINKS.identity],
    ])(`${audience}: %s links to its guidance`, (code, link) => {
      mockFetch(() => ({ status: 404, body: {} }));
      inRouter(<ActivityResult activity={activity({ activity_type: code })} audience={audience} />);
      const anchor = screen.getByRole('link', { name: link.label });
      expect(anchor).toBe(screen.getByTestId('guidance-link'));
      expect(anchor).toHaveAttribute('href', link.url);
      expect(anchor).toHaveAttribute('target', '_blank');
    });
  }

  it('the two guidance targets differ', () => {
    expect(GUIDANCE_LINKS.basic.url).not.toBe(GUIDANCE_LINKS.identity.url);
    expect(GUIDANCE_LINKS.basic.label).toBe('Basic check ID checking guidelines');
    expect(GUIDANCE_LINKS.identity.label).toBe('ID checking guidelines');
  });

  it('the subject gets no guidance link', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(
      <ActivityResult activity={activity({ activity_type: 'dbs-basic' })} audience="subject" />,
    );
    expect(screen.queryByRole('link', { name: GUIDANCE_LINKS.basic.label })).toBeNull();
    expect(screen.queryByTestId('guidance-link')).toBeNull();
  });
});

describe('notes accordion in the activity result (operations only)', () => {
  it('ops: the notes accordion with the saved notes in a 4-row text area', async () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(<ActivityResult activity={activity({ notes: 'Seen the referee' })} audience="ops" />);
    expect(screen.getByTestId('notes-accordion')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Notes' }));
    const area = await screen.findByRole('textbox', { name: 'Notes' });
    expect(area).toHaveValue('Seen the referee');
    expect(area).toHaveAttribute('rows', '4');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'History' })).toBeInTheDocument();
  });

  it('ops: over 400 characters Save is disabled with "Max length 400"', async () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(<ActivityResult activity={activity({ notes: 'x'.repeat(401) })} audience="ops" />);
    fireEvent.click(screen.getByRole('button', { name: 'Notes' }));
    await screen.findByRole('textbox', { name: 'Notes' });
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByText('Max length 400')).toBeInTheDocument();
  });

  for (const audience of ['customer', 'subject'] as const) {
    it(`${audience}: no notes accordion, no notes text`, async () => {
      const calls = mockFetch(() => ({ status: 404, body: {} }));
      inRouter(
        <ActivityResult activity={activity({ notes: 'Seen the referee' })} audience={audience} />,
      );
      await waitFor(() => expect(calls.length).toBeGreaterThan(0));
      expect(screen.queryByTestId('notes-accordion')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Notes' })).toBeNull();
      expect(screen.queryByRole('textbox', { name: 'Notes' })).toBeNull();
      expect(screen.queryByText('Seen the referee')).toBeNull();
      expect(calls.some((c) => c.url.includes('/notes/'))).toBe(false);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Update service panel and adult-first panel: complete, partial and missing per audience
// ---------------------------------------------------------------------------------------------

describe('update service panel: every field', () => {
  for (const audience of AUDIENCES) {
    it(`${audience}: complete`, () => {
      inRouter(
        <UpdateServicePanel
          audience={audience}
          activity={activity({
            activity_type: 'dbs-update',
            result_data: {
              certificate_status: 'BLANK_NO_NEW_INFO',
              forename: 'Ann',
              surname: 'Lee',
              print_date: '2026-03-01',
            },
          })}
        />,
      );
      const panel = screen.getByTestId('update-service-panel');
      expect(fact(panel, 'Status')).toBe('Registered');
      expect(fact(panel, 'Forename')).toBe('Ann');
      expect(fact(panel, 'Surname')).toBe('Lee');
      expect(fact(panel, 'Print date')).toBe('1st Mar 2026');
      expect(fact(panel, 'Result')).toBe(
        'This certificate did not reveal any information and remains current as no further information has been found since its issue.',
      );
    });

    it(`${audience}: partial (status and surname only)`, () => {
      inRouter(
        <UpdateServicePanel
          audience={audience}
          activity={activity({
            activity_type: 'dbs-update',
            result_data: { certificate_status: 'NON_BLANK_NO_NEW_INFO', surname: 'Lee' },
          })}
        />,
      );
      const panel = screen.getByTestId('update-service-panel');
      expect(fact(panel, 'Status')).toBe('Registered');
      expect(fact(panel, 'Forename')).toBe(DASH);
      expect(fact(panel, 'Surname')).toBe('Lee');
      expect(fact(panel, 'Print date')).toBe(DASH);
      expect(fact(panel, 'Result')).toBe(
        'This certificate remains current as no further information has been found since its issue.',
      );
    });

    it(`${audience}: missing (no result data): Pending and dashes`, () => {
      for (const result_data of [null, {}]) {
        const { unmount } = inRouter(
          <UpdateServicePanel
            audience={audience}
            activity={activity({ activity_type: 'dbs-update', result_data })}
          />,
        );
        const panel = screen.getByTestId('update-service-panel');
        expect(fact(panel, 'Status')).toBe('Pending');
        for (const label of ['Forename', 'Surname', 'Print date', 'Result']) {
          expect(fact(panel, label)).toBe(DASH);
        }
        expect(screen.queryByText('Unexpected status.')).toBeNull();
        unmount();
      }
    });
  }
});

describe('adult first panel: every field', () => {
  for (const audience of AUDIENCES) {
    const subject = audience === 'subject';

    it(`${audience}: complete`, () => {
      inRouter(
        <AdultFirstPanel
          audience={audience}
          activity={activity({
            activity_type: 'adult-first',
            result_data: {
              stage: 'result-received',
              dbs_case: 14,
              reference: 'AF-1',
              result: 'no-match',
              requested_date: '2026-03-01',
              result_date: '2026-03-03',
            },
          })}
        />,
      );
      const panel = screen.getByTestId('adult-first-panel');
      expect(fact(panel, 'Stage')).toBe('Result Received');
      expect(fact(panel, 'Linked DBS case')).toBe('Case #14');
      expect(fact(panel, 'Requested')).toBe('1st Mar 2026');
      expect(fact(panel, 'Result')).toBe('No Match');
      expect(fact(panel, 'Result received')).toBe('3rd Mar 2026');
      // the wait is over: no 'can take up to 72 hours' once the result is in
      expect(screen.queryByTestId('adult-first-note')).toBeNull();
      expect(screen.queryByText(/72 hours/)).toBeNull();
      if (subject) {
        expect(screen.queryByRole('link')).toBeNull();
        expect(within(panel).queryByText('Reference')).toBeNull();
        expect(screen.queryByText('AF-1')).toBeNull();
      } else {
        expect(screen.getByRole('link', { name: 'Case #14' })).toHaveAttribute('href', '/cases/14');
        expect(fact(panel, 'Reference')).toBe('AF-1');
      }
    });

    it(`${audience}: partial (requested, no result yet)`, () => {
      inRouter(
        <AdultFirstPanel
          audience={audience}
          activity={activity({
            activity_type: 'adult-first',
            result_data: {
              stage: 'requested',
              dbs_case: 15,
              reference: 'AF-2',
              requested_date: '2026-03-22',
            },
          })}
        />,
      );
      const panel = screen.getByTestId('adult-first-panel');
      expect(fact(panel, 'Stage')).toBe('Requested');
      expect(fact(panel, 'Linked DBS case')).toBe('Case #15');
      expect(fact(panel, 'Requested')).toBe('22nd Mar 2026');
      expect(fact(panel, 'Result')).toBe(DASH);
      expect(fact(panel, 'Result received')).toBe(DASH);
      if (subject) expect(screen.queryByText('AF-2')).toBeNull();
      else expect(fact(panel, 'Reference')).toBe('AF-2');
      expect(
        screen.getByText('An adult first result can take up to 72 hours.'),
      ).toBeInTheDocument();
    });

    it(`${audience}: missing (no result data): Pending and dashes`, () => {
      for (const result_data of [null, {}]) {
        const { unmount } = inRouter(
          <AdultFirstPanel
            audience={audience}
            activity={activity({ activity_type: 'adult-first', result_data })}
          />,
        );
        const panel = screen.getByTestId('adult-first-panel');
        expect(fact(panel, 'Stage')).toBe('Pending');
        for (const label of ['Linked DBS case', 'Requested', 'Result', 'Result received']) {
          expect(fact(panel, label)).toBe(DASH);
        }
        if (subject) expect(within(panel).queryByText('Reference')).toBeNull();
        else expect(fact(panel, 'Reference')).toBe(DASH);
        expect(screen.queryByRole('link')).toBeNull();
        expect(
          screen.getByText('An adult first result can take up to 72 hours.'),
        ).toBeInTheDocument();
        unmount();
      }
    });
  }
});
