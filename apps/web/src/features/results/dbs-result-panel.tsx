import {
  BARRED_LIST_LABELS,
  certificateStatusMeaning,
  countryName,
  DBS_RESULT_TEXTS,
  type DbsResultData,
  DISCLOSURE_STATUS_LABELS,
  type DisclosureStatus,
  dbsDetailsStateText,
  formatPence,
  IDV_OPTION_LABELS,
  type IdvOption,
  isActivityOpen,
  isCountersignedKind,
  nationalityName,
  PAY_TOP_UP_LABEL,
  readResultData,
  UPDATE_SERVICE_STATUS_LABELS,
  updateServiceStatus,
} from '@kestrel/domain';
import { Alert, Button, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { href } from '../../config/paths';
import {
  type Audience,
  day,
  Facts,
  isCancelled,
  Note,
  PANEL_TEXTS,
  type PanelActivity,
  PanelFrame,
  PanelSection,
  SmallTable,
  yesNo,
} from './panel-kit';
import type { DbsDetails } from './results-api';

export interface DbsPanelProps {
  activity: PanelActivity;
  audience: Audience;
  /** The case's DBS details (verification); null while there are none. */
  dbsDetails?: DbsDetails | null;
}

interface TopUp {
  status: string;
  amountPence: number | null;
  paymentId: string | null;
}

/** The top-up the activity waits for: the engine's processing data, or the result's copy. */
export function topUpOf(activity: PanelActivity, data: DbsResultData): TopUp | null {
  const raw = activity.processing_data?.top_up;
  if (typeof raw === 'object' && raw !== null && 'status' in raw) {
    const r = raw as Record<string, unknown>;
    const intent = r.payment_intent;
    return {
      status: String(r.status),
      amountPence: typeof r.amount_pence === 'number' ? r.amount_pence : null,
      paymentId: typeof intent === 'string' || typeof intent === 'number' ? String(intent) : null,
    };
  }
  if (data.top_up) {
    return {
      status: data.top_up.status,
      amountPence: data.top_up.amount ?? null,
      paymentId: data.top_up.payment_id == null ? null : String(data.top_up.payment_id),
    };
  }
  return null;
}

/** States of an application the subject has not submitted yet (or was sent back to them). */
const BEFORE_SUBMISSION: readonly string[] = ['ca-pending', 'ca-awaiting-subject'];

/**
 * The one status line of an open application, most pressing first: verification and
 * countersigning for standard and enhanced applications (a basic one has neither), then the
 * DBS processing it. A finished or cancelled check has none, nor one the subject has not
 * submitted yet (waiting for the subject, and no top-up: a submitted application waits for the
 * subject only to pay one): there is nothing to verify yet, only the spec's fallbacks show.
 */
export function dbsStatusLine(
  data: DbsResultData,
  details: DbsDetails | null | undefined,
  activity: { code: string; state: string; awaitingTopUp?: boolean },
): string | null {
  if (data.disclosure?.status || data.disclosure?.certificate_number) return null;
  if (!isActivityOpen(activity.state)) return null;
  if (BEFORE_SUBMISSION.includes(activity.state) && !activity.awaitingTopUp) return null;
  if (isCountersignedKind(activity.code)) {
    if (details?.state === 'pending' || details?.state === 'verified') {
      return dbsDetailsStateText(details.state);
    }
  }
  if (hasReceipt(data)) return DBS_RESULT_TEXTS.processing;
  return null;
}

const hasReceipt = (data: DbsResultData) =>
  !!(data.application?.reference || data.application?.received_date || data.application?.e_number);

const disclosureStatus = (status: string | null | undefined) =>
  status && Object.hasOwn(DISCLOSURE_STATUS_LABELS, status)
    ? DISCLOSURE_STATUS_LABELS[status as DisclosureStatus]
    : (status ?? '');

/** The identity-verification route in words (the code itself if it is not one we know). */
export const idvOptionText = (option: string | null | undefined) =>
  option && Object.hasOwn(IDV_OPTION_LABELS, option)
    ? IDV_OPTION_LABELS[option as IdvOption]
    : (option ?? '');

/**
 * Criminal-record basic, standard and enhanced results (spec point 2): applicant, verification,
 * application details, disclosure result, tracking stages, barred lists and the update service,
 * with the spec's fallback texts. The subject's view leaves out other people's names
 * (verified by, countersigned by) and the verifier's discrepancy notes.
 */
export function DbsResultPanel({ activity, audience, dbsDetails }: DbsPanelProps) {
  const data = readResultData('dbs-basic', activity.result_data);
  const subject = audience === 'subject';
  // a closed check waits for no top-up any more
  const topUp = isActivityOpen(activity.state) ? topUpOf(activity, data) : null;
  // awaiting a top-up, the DBS does not have the application yet: no 'being processed' line
  const line = dbsStatusLine(data, dbsDetails, {
    code: activity.activity_type,
    state: activity.state,
    awaitingTopUp: topUp?.status === 'awaiting',
  });
  const status = topUp?.status === 'awaiting' && line === DBS_RESULT_TEXTS.processing ? null : line;
  const app = data.application;
  const d = data.disclosure;
  const a = data.applicant;
  return (
    <PanelFrame testId="dbs-result-panel">
      {isCancelled(activity) && (
        <Alert color="gray" data-testid="dbs-cancelled">
          {PANEL_TEXTS.cancelled}
        </Alert>
      )}
      {topUp?.status === 'awaiting' && (
        <Alert color="yellow" title={DBS_RESULT_TEXTS.awaitingTopUp} data-testid="dbs-top-up">
          <Stack gap={4}>
            {topUp.amountPence !== null && (
              <span>Amount due: {formatPence(topUp.amountPence)}</span>
            )}
            {topUp.paymentId !== null && (
              <Button
                h={44}
                component={Link}
                to={href('payment-portal', { id: topUp.paymentId })}
                color="dark"
                w="fit-content"
              >
                {PAY_TOP_UP_LABEL}
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      {status && (
        <Alert color="blue" data-testid="dbs-status">
          {status}
        </Alert>
      )}
      {a && (
        <PanelSection title="Applicant details" testId="dbs-applicant">
          <Facts
            items={[
              ['Name', [a.title, a.forename, a.middlename, a.surname].filter(Boolean).join(' ')],
              ['Date of birth', day(a.dob)],
              ['Email', a.email],
              ['Phone number', a.phone_number],
              ['NI number', a.nin],
              // the applicant's codes in words: 'GBR' is 'British', born in 'United Kingdom'
              ['Nationality', a.nationality ? nationalityName(a.nationality) : ''],
              [
                'Place of birth',
                [a.birth_town, a.birth_country ? countryName(a.birth_country) : '']
                  .filter(Boolean)
                  .join(', '),
              ],
              ['Current address', a.current_address],
            ]}
          />
        </PanelSection>
      )}
      {dbsDetails && (
        <PanelSection title="Verification details">
          <Facts
            items={[
              ['Verification option', idvOptionText(dbsDetails.idv_option)],
              ['Video call date', day(dbsDetails.video_call_date)],
              ['In-person expected date', day(dbsDetails.in_person_expected_date)],
              ...(subject ? [] : ([['Discrepancy notes', dbsDetails.discrepancy_notes]] as const)),
            ]}
          />
        </PanelSection>
      )}
      <PanelSection title="Application details" testId="dbs-application">
        {app && hasReceipt(data) ? (
          <Facts
            items={[
              ['Status', app.status],
              ['Reference', app.reference ?? app.e_number],
              ['Received date', day(app.received_date)],
              ['Police computer search date', day(app.police_computer_search_date)],
              ['Certificate assembled', day(app.certificate_assembled_date)],
              ['Certificate despatched', day(app.certificate_despatched_date)],
              ['Certificate printed', day(app.certificate_printed_date)],
              ['Barred list search date', day(app.barred_list_search_date)],
              ['Records held date', day(app.records_held_date)],
              ...(subject
                ? []
                : ([
                    ['Verified by', app.verified_by ?? dbsDetails?.verified_by],
                    ['Countersigned by', app.countersigned_by ?? dbsDetails?.countersigned_by],
                  ] as const)),
            ]}
          />
        ) : (
          <Note>{DBS_RESULT_TEXTS.receiptsUnavailable}</Note>
        )}
      </PanelSection>
      <PanelSection title="Disclosure result" testId="dbs-disclosure">
        {d && (d.status || d.certificate_number) ? (
          <>
            <Facts
              items={[
                ['Status', disclosureStatus(d.status)],
                ['Certificate number', d.certificate_number],
                ['Issue date', day(d.issue_date)],
                ['Manual certificate', yesNo(d.manual_certificate)],
              ]}
            />
            <Note>{DBS_RESULT_TEXTS.notACertificate}</Note>
          </>
        ) : (
          <Note>{DBS_RESULT_TEXTS.resultsUnavailable}</Note>
        )}
      </PanelSection>
      <PanelSection title="Tracking" testId="dbs-tracking">
        {data.tracking?.length ? (
          <SmallTable
            caption="Tracking stages"
            head={['Stage', 'Status', 'Completed']}
            rows={data.tracking.map((s) => [s.stage, s.status, day(s.completed_date)])}
          />
        ) : (
          <Note>{DBS_RESULT_TEXTS.trackingUnavailable}</Note>
        )}
      </PanelSection>
      {data.barred_lists && data.barred_lists.length > 0 && (
        <PanelSection title="Barred lists" testId="dbs-barred-lists">
          <SmallTable
            caption="Barred list searches"
            head={['List', 'Searched', 'Search date', 'Result']}
            rows={data.barred_lists.map((b) => [
              BARRED_LIST_LABELS[b.list],
              yesNo(b.searched),
              day(b.search_date),
              b.result === 'match' ? 'Match' : b.result === 'no-match' ? 'No match' : '',
            ])}
          />
        </PanelSection>
      )}
      {data.update_service && (
        <PanelSection title="Update service" testId="dbs-update-service">
          <Facts
            items={[
              [
                'Status',
                UPDATE_SERVICE_STATUS_LABELS[
                  updateServiceStatus(data.update_service.certificate_status)
                ],
              ],
              [
                'Result',
                data.update_service.certificate_status
                  ? certificateStatusMeaning(data.update_service.certificate_status)
                  : '',
              ],
              ['Checked', day(data.update_service.checked_date)],
            ]}
          />
        </PanelSection>
      )}
    </PanelFrame>
  );
}
