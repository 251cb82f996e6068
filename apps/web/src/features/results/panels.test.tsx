import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { product, productIn } from '../../test/sessions';
import { ActivityConfigAccordion } from './activity-config-accordion';
import { ActivityResult, SubjectActivityResult } from './activity-result';
import { AdultFirstPanel } from './adult-first-panel';
import { DbsResultPanel } from './dbs-result-panel';
import type { Audience, PanelActivity } from './panel-kit';
import type { DbsDetails } from './results-api';
import { UpdateServicePanel } from './update-service-panel';

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];

const complete = {
  applicant: { title: 'Ms', forename: 'Ann', surname: 'Lee', dob: '1990-04-02' },
  application: {
    status: 'Completed',
    reference: 'E-100',
    received_date: '2026-01-02',
    police_computer_search_date: '2026-01-05',
    certificate_assembled_date: '2026-01-10',
    certificate_despatched_date: '2026-01-11',
    certificate_printed_date: '2026-01-12',
    barred_list_search_date: '2026-01-06',
    records_held_date: '2026-01-07',
    verified_by: 'Vera Verifier',
    countersigned_by: 'Colin Counter',
  },
  disclosure: {
    status: 'clear',
    certificate_number: '001234567890',
    issue_date: '2026-01-12',
    manual_certificate: true,
  },
  tracking: [
    { stage: 'Application received', status: 'Completed', completed_date: '2026-01-02' },
    { stage: 'Police records checked', status: 'In progress' },
  ],
  barred_lists: [{ list: 'adult', searched: true, search_date: '2026-01-06', result: 'no-match' }],
  update_service: { certificate_status: 'BLANK_NO_NEW_INFO' },
};
const partial = { application: { reference: 'E-101', received_date: '2026-02-01' } };

const activity = (over: Partial<PanelActivity> = {}): PanelActivity => ({
  id: 7,
  state: 'ca-in-progress',
  activity_type: 'dbs-enhanced',
  config: {},
  result_data: {},
  processing_data: {},
  case: { id: 14 },
  ...over,
});

const inRouter = (ui: React.ReactElement) => renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>);

afterEach(() => resetSession());

describe('criminal-record panel', () => {
  for (const audience of AUDIENCES) {
    it(`${audience}: the applicant's nationality and place of birth in words, not codes`, () => {
      const { unmount } = inRouter(
        <DbsResultPanel
          audience={audience}
          activity={activity({
            result_data: {
              applicant: {
                forename: 'Ann',
                surname: 'Lee',
                nationality: 'GBR',
                birth_town: 'Leeds',
                birth_country: 'GBR',
              },
            },
          })}
        />,
      );
      const applicant = screen.getByTestId('dbs-applicant');
      expect(within(applicant).getByText('British')).toBeInTheDocument();
      expect(within(applicant).getByText('Leeds, United Kingdom')).toBeInTheDocument();
      expect(within(applicant).queryByText(/GBR/)).toBeNull();
      unmount();
      // a code the table does not know stays as given; a nationality only, without a town
      inRouter(
        <DbsResultPanel
          audience={audience}
          activity={activity({
            result_data: {
              applicant: { surname: 'Lee', nationality: 'IND', birth_country: 'FRA' },
            },
          })}
        />,
      );
      const other = screen.getByTestId('dbs-applicant');
      expect(within(other).getByText('Indian')).toBeInTheDocument();
      expect(within(other).getByText('France')).toBeInTheDocument();
    });

    it(`${audience}: complete data shows every section, the certificate note and no fallbacks`, () => {
      inRouter(
        <DbsResultPanel
          audience={audience}
          activity={activity({ result_data: complete })}
          dbsDetails={{
            state: 'countersigned',
            idv_option: 'video-call',
            video_call_date: '2026-01-01',
            discrepancy_notes: 'Middle name missing on passport',
            verified_by: 'Vera Verifier',
          }}
        />,
      );
      expect(screen.getByText('Applicant details')).toBeInTheDocument();
      expect(screen.getByText('Ms Ann Lee')).toBeInTheDocument();
      expect(screen.getByText('2nd Apr 1990')).toBeInTheDocument();
      expect(screen.getByText('On a video call, showing my documents')).toBeInTheDocument();
      expect(screen.queryByText('video-call')).toBeNull();
      const app = screen.getByTestId('dbs-application');
      expect(within(app).getByText('E-100')).toBeInTheDocument();
      expect(within(app).getByText('2nd Jan 2026')).toBeInTheDocument();
      expect(within(app).getByText('Police computer search date')).toBeInTheDocument();
      expect(within(app).getByText('Records held date')).toBeInTheDocument();
      const disclosure = screen.getByTestId('dbs-disclosure');
      expect(within(disclosure).getByText('Clear')).toBeInTheDocument();
      expect(within(disclosure).getByText('001234567890')).toBeInTheDocument();
      expect(within(disclosure).getByText('Yes')).toBeInTheDocument();
      expect(
        within(disclosure).getByText('This is not a certificate issued by the DBS'),
      ).toBeInTheDocument();
      const tracking = screen.getByTestId('dbs-tracking');
      expect(within(tracking).getByText('Police records checked')).toBeInTheDocument();
      expect(within(tracking).getByText('In progress')).toBeInTheDocument();
      expect(
        within(screen.getByTestId('dbs-barred-lists')).getByText('No match'),
      ).toBeInTheDocument();
      expect(
        within(screen.getByTestId('dbs-update-service')).getByText('Registered'),
      ).toBeInTheDocument();
      for (const fallback of [
        'DBS Receipts not yet available',
        'DBS Results not yet available',
        'DBS Tracking not yet available',
        'This application is being processed by the DBS.',
      ]) {
        expect(screen.queryByText(fallback)).toBeNull();
      }
      // the subject sees no other people's names nor the verifier's notes
      const names = ['Vera Verifier', 'Colin Counter', 'Middle name missing on passport'];
      for (const name of names) {
        if (audience === 'subject') expect(screen.queryByText(name)).toBeNull();
        else expect(screen.getByText(name)).toBeInTheDocument();
      }
    });

    it(`${audience}: partial data (a receipt only) says it is being processed`, () => {
      inRouter(
        <DbsResultPanel audience={audience} activity={activity({ result_data: partial })} />,
      );
      expect(
        screen.getByText('This application is being processed by the DBS.'),
      ).toBeInTheDocument();
      expect(within(screen.getByTestId('dbs-application')).getByText('E-101')).toBeInTheDocument();
      expect(screen.getByText('DBS Results not yet available')).toBeInTheDocument();
      expect(screen.getByText('DBS Tracking not yet available')).toBeInTheDocument();
      expect(screen.queryByText('DBS Receipts not yet available')).toBeNull();
      expect(screen.queryByText('This is not a certificate issued by the DBS')).toBeNull();
    });

    it(`${audience}: missing data shows the three fallbacks`, () => {
      inRouter(<DbsResultPanel audience={audience} activity={activity({ result_data: null })} />);
      expect(screen.getByText('DBS Receipts not yet available')).toBeInTheDocument();
      expect(screen.getByText('DBS Results not yet available')).toBeInTheDocument();
      expect(screen.getByText('DBS Tracking not yet available')).toBeInTheDocument();
      expect(screen.queryByTestId('dbs-status')).toBeNull();
    });
  }

  it('awaiting verification, then countersigning, from the DBS details state', () => {
    const view = (state: DbsDetails['state']) =>
      inRouter(<DbsResultPanel audience="customer" activity={activity()} dbsDetails={{ state }} />);
    const first = view('pending');
    expect(screen.getByText('This application is awaiting verification.')).toBeInTheDocument();
    first.unmount();
    view('verified');
    expect(screen.getByText('This application is awaiting countersigning.')).toBeInTheDocument();
  });

  it('before the subject has submitted, no verification state: only the fallbacks', () => {
    // a case without DBS details answers a blank record (state pending) before the subject starts
    for (const state of ['ca-pending', 'ca-awaiting-subject']) {
      for (const audience of AUDIENCES) {
        const { unmount } = inRouter(
          <DbsResultPanel
            audience={audience}
            activity={activity({ state })}
            dbsDetails={{ state: 'pending' }}
          />,
        );
        expect(screen.queryByText('This application is awaiting verification.')).toBeNull();
        expect(screen.queryByTestId('dbs-status')).toBeNull();
        expect(screen.getByText('DBS Receipts not yet available')).toBeInTheDocument();
        expect(screen.getByText('DBS Results not yet available')).toBeInTheDocument();
        expect(screen.getByText('DBS Tracking not yet available')).toBeInTheDocument();
        unmount();
      }
    }
  });

  it('a submitted application waiting for a price-list top-up still awaits verification', () => {
    inRouter(
      <DbsResultPanel
        audience="customer"
        activity={activity({
          state: 'ca-awaiting-subject',
          processing_data: {
            top_up: { status: 'awaiting', amount_pence: 350, reason: 'x', payment_intent: 'pi_1' },
          },
        })}
        dbsDetails={{ state: 'pending' }}
      />,
    );
    expect(screen.getByText('This application is awaiting verification.')).toBeInTheDocument();
  });

  it('the verification option in words, never its code', () => {
    for (const [code, shown] of [
      ['online', 'Online, with a digital identity check'],
      ['in-person', 'In person, showing my documents'],
      ['video-call', 'On a video call, showing my documents'],
    ] as const) {
      for (const audience of AUDIENCES) {
        const { unmount } = inRouter(
          <DbsResultPanel
            audience={audience}
            activity={activity()}
            dbsDetails={{ state: 'pending', idv_option: code }}
          />,
        );
        const label = screen.getByText('Verification option', { selector: 'p' });
        expect(label.nextElementSibling).toHaveTextContent(shown);
        expect(screen.queryByText(code)).toBeNull();
        unmount();
      }
    }
  });

  it("'Awaiting top-up payment' with its link to the payment portal", () => {
    inRouter(
      <DbsResultPanel
        audience="customer"
        activity={activity({
          processing_data: {
            top_up: { status: 'awaiting', amount_pence: 1250, reason: 'x', payment_intent: 'pi_9' },
          },
        })}
      />,
    );
    const box = screen.getByTestId('dbs-top-up');
    expect(within(box).getByText('Awaiting top-up payment')).toBeInTheDocument();
    expect(within(box).getByText('Amount due: £12.50')).toBeInTheDocument();
    expect(within(box).getByRole('link', { name: 'Pay the top-up' })).toHaveAttribute(
      'href',
      '/payment-portal/pi_9',
    );
    // the DBS does not have it yet, whatever the provider's receipt says
    expect(screen.queryByText('This application is being processed by the DBS.')).toBeNull();
  });

  it('a price-list top-up before verification still says it awaits verification', () => {
    inRouter(
      <DbsResultPanel
        audience="customer"
        activity={activity({
          processing_data: {
            top_up: { status: 'awaiting', amount_pence: 350, reason: 'x', payment_intent: 'pi_1' },
          },
        })}
        dbsDetails={{ state: 'pending' }}
      />,
    );
    expect(screen.getByText('Awaiting top-up payment')).toBeInTheDocument();
    expect(screen.getByText('This application is awaiting verification.')).toBeInTheDocument();
  });

  it('a paid top-up shows nothing; the result copy of a top-up is read too', () => {
    const { unmount } = inRouter(
      <DbsResultPanel
        audience="customer"
        activity={activity({ processing_data: { top_up: { status: 'paid', amount_pence: 1 } } })}
      />,
    );
    expect(screen.queryByText('Awaiting top-up payment')).toBeNull();
    unmount();
    inRouter(
      <DbsResultPanel
        audience="subject"
        activity={activity({
          processing_data: undefined,
          result_data: { top_up: { status: 'awaiting', payment_id: 'pi_3' } },
        })}
      />,
    );
    expect(screen.getByRole('link', { name: 'Pay the top-up' })).toHaveAttribute(
      'href',
      '/payment-portal/pi_3',
    );
  });
});

describe('update service panel', () => {
  for (const audience of AUDIENCES) {
    it(`${audience}: status, names, print date and result; pending when missing`, () => {
      const { unmount } = inRouter(
        <UpdateServicePanel
          audience={audience}
          activity={activity({
            activity_type: 'dbs-update',
            result_data: {
              certificate_status: 'NEW_INFO',
              forename: 'Ann',
              surname: 'Lee',
              print_date: '2025-03-01',
            },
          })}
        />,
      );
      expect(screen.getByText('Registered')).toBeInTheDocument();
      expect(screen.getByText('Ann')).toBeInTheDocument();
      expect(screen.getByText('1st Mar 2025')).toBeInTheDocument();
      expect(
        screen.getByText(
          'This certificate is no longer current. Please apply for a new check to see the new information.',
        ),
      ).toBeInTheDocument();
      unmount();
      const partialView = inRouter(
        <UpdateServicePanel
          audience={audience}
          activity={activity({
            activity_type: 'dbs-update',
            result_data: { certificate_status: 'NO_MATCH_FOUND' },
          })}
        />,
      );
      expect(screen.getByText('Not registered')).toBeInTheDocument();
      expect(screen.getByText('No match found.')).toBeInTheDocument();
      partialView.unmount();
      inRouter(
        <UpdateServicePanel
          audience={audience}
          activity={activity({ activity_type: 'dbs-update' })}
        />,
      );
      expect(screen.getByText('Pending')).toBeInTheDocument();
    });
  }

  it("an unknown status shows 'Unexpected status.'", () => {
    inRouter(
      <UpdateServicePanel
        audience="customer"
        activity={activity({
          activity_type: 'dbs-update',
          result_data: { certificate_status: 'ODD' },
        })}
      />,
    );
    expect(screen.getByText('Unexpected status.')).toBeInTheDocument();
  });
});

describe('adult first panel', () => {
  for (const audience of AUDIENCES) {
    it(`${audience}: stage, linked case, result and the 72-hour note`, () => {
      const { unmount } = inRouter(
        <AdultFirstPanel
          audience={audience}
          activity={activity({
            activity_type: 'adult-first',
            result_data: {
              stage: 'result-received',
              dbs_case: 14,
              reference: 'AF-1',
              result: 'certificate-already-issued',
            },
          })}
        />,
      );
      expect(screen.getByText('Result Received')).toBeInTheDocument();
      expect(screen.getByText('Certificate Already Issued')).toBeInTheDocument();
      // the result is in: the wait's note is gone
      expect(screen.queryByText('An adult first result can take up to 72 hours.')).toBeNull();
      if (audience === 'subject') {
        expect(screen.queryByRole('link', { name: 'Case #14' })).toBeNull();
        expect(screen.queryByText('AF-1')).toBeNull();
      } else {
        expect(screen.getByRole('link', { name: 'Case #14' })).toHaveAttribute('href', '/cases/14');
      }
      unmount();
      inRouter(
        <AdultFirstPanel
          audience={audience}
          activity={activity({ activity_type: 'adult-first', result_data: {} })}
        />,
      );
      expect(screen.getByText('Pending')).toBeInTheDocument();
      expect(
        screen.getByText('An adult first result can take up to 72 hours.'),
      ).toBeInTheDocument();
    });

    it(`${audience}: a cancelled request waits for nothing: no 72-hour note`, () => {
      inRouter(
        <AdultFirstPanel
          audience={audience}
          activity={activity({
            activity_type: 'adult-first',
            state: 'ca-cancelled',
            result_data: { stage: 'requested', dbs_case: 14, reference: 'AF-3' },
          })}
        />,
      );
      expect(screen.getByText('Requested', { selector: 'div' })).toBeInTheDocument();
      expect(screen.queryByTestId('adult-first-note')).toBeNull();
    });
  }
});

describe('activity configuration accordion', () => {
  it('shows the purpose, employer, workforce, flags and the paper certificate address', async () => {
    inRouter(
      <ActivityConfigAccordion
        config={{
          purpose: 'other',
          other_purpose: 'Board member',
          employment_sector: 'health',
          employer_name_source: 'segment',
          position: 'Nurse',
          online_cert_email: 'hr@acme.test',
          paper_cert: true,
          paper_cert_name: 'HR Team',
          paper_cert_line_one: '1 High Street',
          paper_cert_town: 'Leeds',
          paper_cert_postcode: 'LS1 1AA',
          workforce: 'CA',
          volunteer: false,
          adult_barred_list: true,
          child_barred_list: true,
          working_at_home_address: false,
        }}
      />,
    );
    screen.getByRole('button', { name: 'Activity configuration' }).click();
    expect(await screen.findByText('Board member')).toBeInTheDocument();
    expect(screen.getByText('Health')).toBeInTheDocument();
    expect(screen.getByText('segment employer name')).toBeInTheDocument();
    expect(screen.getByText('CA Child and Adult')).toBeInTheDocument();
    expect(screen.getByText('Working with vulnerable adults')).toBeInTheDocument();
    expect(screen.getByText('Working with children')).toBeInTheDocument();
    expect(screen.getByText('Working at home address')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('paper-cert-address')).getByText('LS1 1AA'),
    ).toBeInTheDocument();
  });
});

describe('activity result (registry, guidance, notes, adult-first offer)', () => {
  const enhanced = activity({
    config: { adult_barred_list: true, workforce: 'A' },
    notes: 'Seen',
  });

  it('the subject sees the panel only: no guidance, notes or offer', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(<ActivityResult activity={enhanced} audience="subject" />);
    expect(screen.getByTestId('dbs-result-panel')).toBeInTheDocument();
    expect(screen.queryByTestId('guidance-link')).toBeNull();
    expect(screen.queryByTestId('notes-accordion')).toBeNull();
    expect(screen.queryByTestId('request-adult-first')).toBeNull();
  });

  it('customer staff: guidance link, the adult-first offer when the six conditions hold, no notes', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    const p = product({ session_permissions: ['cases.add_case', 'cases.view_case'] });
    const s = productIn(p);
    setSession({
      ...s,
      bootstrap: s.bootstrap && {
        ...s.bootstrap,
        activityTypes: [
          { id: 1, code: 'dbs-enhanced', name: 'Enhanced', kind: 'dbs-enhanced' },
          { id: 2, code: 'adult-first', name: 'Adult first', kind: 'adult-first' },
        ],
      },
    });
    const { unmount } = inRouter(
      <ActivityResult
        activity={enhanced}
        audience="customer"
        caseActivityCodes={['dbs-enhanced']}
      />,
    );
    expect(screen.getByTestId('guidance-link')).toHaveTextContent('ID checking guidelines');
    expect(screen.getByTestId('request-adult-first')).toBeInTheDocument();
    expect(screen.queryByTestId('notes-accordion')).toBeNull();
    unmount();
    // already on the case: no offer
    inRouter(
      <ActivityResult
        activity={enhanced}
        audience="customer"
        caseActivityCodes={['dbs-enhanced', 'adult-first']}
      />,
    );
    expect(screen.queryByTestId('request-adult-first')).toBeNull();
  });

  it('basic check guidance for dbs-basic', () => {
    mockFetch(() => ({ status: 404, body: {} }));
    inRouter(
      <ActivityResult activity={activity({ activity_type: 'dbs-basic' })} audience="customer" />,
    );
    expect(screen.getByTestId('guidance-link')).toHaveTextContent(
      'Basic check ID checking guidelines',
    );
  });

  it('an unknown kind renders nothing', () => {
    const { container } = inRouter(
      <ActivityResult activity={activity({ activity_type: 'no-such-kind' })} audience="customer" />,
    );
    expect(container.querySelector('[data-testid="activity-result"]')).toBeNull();
  });
});

describe('subject result panel (the subject case page slot)', () => {
  it('reads the subject path and shows the restricted panel', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/api/s/case-activities/')
        ? {
            status: 200,
            body: {
              id: 7,
              case: 14,
              activity_type: 'dbs-enhanced',
              state: 'ca-in-progress',
              result_data: { application: { reference: 'E-7', received_date: '2026-01-02' } },
            },
          }
        : { status: 404, body: {} },
    );
    inRouter(
      <SubjectActivityResult
        caseId={14}
        activity={{ id: 7, state: 'ca-in-progress', activity_type: { code: 'dbs-enhanced' } }}
      />,
    );
    expect(await screen.findByText('E-7')).toBeInTheDocument();
    expect(screen.getByText('This application is being processed by the DBS.')).toBeInTheDocument();
    expect(screen.queryByTestId('guidance-link')).toBeNull();
    expect(calls.map((c) => c.url)).toEqual(
      expect.arrayContaining(['/api/s/case-activities/7/result/', '/api/s/case-dbs-details/14/']),
    );
  });
});
