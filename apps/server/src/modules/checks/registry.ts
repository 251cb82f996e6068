import {
  type ActivityConfig,
  type ApplicationUpdate,
  type CaseActivityState,
  type CheckProvider,
  DBS_RESULT_TEXTS,
  type DbsApplicant,
  type DbsResultData,
  type DbsUpdateResultData,
  DISCLOSURE_STAGES,
  dbsResultDataSchema,
  dbsUpdateResultDataSchema,
  type EngineRunKind,
  isCertificateStatus,
  isEngineRunKind,
  type TopUp,
} from '@kestrel/domain';
import type { z } from 'zod';
import type { DisclosureApplicant, DisclosureLevel } from '../../providers/dbs-basic/provider.js';
import type { StatusCheckAnswer } from '../../providers/dbs-update-service/provider.js';

/*
 * The one registry of the kinds of check the engine runs: for each activity type code, its
 * provider, what starts it (the subject's submission), how a provider's answer or callback maps
 * to an activity state and typed result_data, and when it is complete. States and transitions are
 * the domain's (states.ts); a move the domain refuses is refused here too (changeActivity).
 */

interface KindBase {
  code: string;
  provider: CheckProvider;
  /** What starts it: the subject's Review & Submit (portal). */
  trigger: 'submission';
  resultSchema: z.ZodType;
}

export interface DisclosureKind extends KindBase {
  family: 'disclosure';
  provider: 'dbs-basic' | 'ebulk';
  level: DisclosureLevel;
  resultSchema: z.ZodType<DbsResultData>;
  /** The barred lists searched for this configuration (enhanced, per workforce). */
  barredLists(config: ActivityConfig): ('adult' | 'child')[];
}

export interface UpdateServiceKind extends KindBase {
  family: 'update-service';
  provider: 'dbs-update-service';
  resultSchema: z.ZodType<DbsUpdateResultData>;
}

export type CheckKindDefinition = DisclosureKind | UpdateServiceKind;

const none = () => [];

/**
 * Enhanced checks search the barred lists the configuration asks for, limited to its workforce
 * (C: children's, A: adults', CA: both; O: none).
 */
export function enhancedBarredLists(config: ActivityConfig): ('adult' | 'child')[] {
  const w = config.workforce ?? 'O';
  const lists: ('adult' | 'child')[] = [];
  if (config.adult_barred_list && (w === 'A' || w === 'CA')) lists.push('adult');
  if (config.child_barred_list && (w === 'C' || w === 'CA')) lists.push('child');
  return lists;
}

/** One entry per kind the engine runs (the domain's ENGINE_RUN_KINDS: the compiler holds them equal). */
export const CHECK_KINDS: Record<EngineRunKind, CheckKindDefinition> = {
  'dbs-basic': {
    code: 'dbs-basic',
    family: 'disclosure',
    provider: 'dbs-basic',
    level: 'basic',
    trigger: 'submission',
    resultSchema: dbsResultDataSchema,
    barredLists: none,
  },
  'dbs-standard': {
    code: 'dbs-standard',
    family: 'disclosure',
    provider: 'ebulk',
    level: 'standard',
    trigger: 'submission',
    resultSchema: dbsResultDataSchema,
    barredLists: none,
  },
  'dbs-enhanced': {
    code: 'dbs-enhanced',
    family: 'disclosure',
    provider: 'ebulk',
    level: 'enhanced',
    trigger: 'submission',
    resultSchema: dbsResultDataSchema,
    barredLists: enhancedBarredLists,
  },
  'dbs-update': {
    code: 'dbs-update',
    family: 'update-service',
    provider: 'dbs-update-service',
    trigger: 'submission',
    resultSchema: dbsUpdateResultDataSchema,
  },
};

export function checkKindOf(code: string): CheckKindDefinition | null {
  return isEngineRunKind(code) ? CHECK_KINDS[code] : null;
}

const STATE_OF_STATUS: Record<ApplicationUpdate['status'], CaseActivityState> = {
  'in-progress': 'ca-in-progress',
  complete: 'ca-complete',
  cancelled: 'ca-cancelled',
  'top-up-required': 'ca-awaiting-subject',
};

const STATUS_LABEL: Record<ApplicationUpdate['status'], string> = {
  'in-progress': 'In progress',
  complete: 'Complete',
  cancelled: 'Cancelled',
  'top-up-required': DBS_RESULT_TEXTS.awaitingTopUp,
};

/** The result panel's mirror of a top-up (status, amount, payment id). */
export function topUpResult(t: TopUp | null): DbsResultData['top_up'] {
  return t ? { status: t.status, amount: t.amount_pence, payment_id: t.payment_intent } : null;
}

/**
 * The applicant as submitted to the provider, for the result panel's applicant details: the
 * names, date of birth, contact details, NI number, nationality, place of birth and current
 * address the application carried (empty ones as null; each within the result's 200 characters).
 */
export function applicantResult(a: DisclosureApplicant): DbsApplicant {
  const v = (s: string) => (s.trim() ? s.trim().slice(0, 200) : null);
  return {
    title: v(a.title),
    forename: v(a.forename),
    middlename: v(a.middlename),
    surname: v(a.surname),
    dob: v(a.dob),
    email: v(a.email),
    phone_number: v(a.phone_number),
    nin: v(a.nin),
    nationality: v(a.nationality),
    birth_town: v(a.birth_town),
    birth_country: v(a.birth_country),
    current_address: v(a.current_address),
  };
}

/** A provider's application update as the activity's state and result_data. */
export function mapApplicationUpdate(
  u: ApplicationUpdate,
  previous: DbsResultData,
  topUp: TopUp | null,
): { state: CaseActivityState; resultData: DbsResultData } {
  const dateOf = (stage: number) => u.stages.find((s) => s.stage === stage)?.completed_date ?? null;
  // The certificate's assembled and despatched dates: a provider that does not report them
  // (the field absent) leaves what is known.
  const assembled =
    u.certificate_assembled_date !== undefined
      ? u.certificate_assembled_date
      : (previous.application?.certificate_assembled_date ?? null);
  const despatched =
    u.certificate_despatched_date !== undefined
      ? u.certificate_despatched_date
      : (previous.application?.certificate_despatched_date ?? null);
  const resultData: DbsResultData = {
    ...previous,
    application: {
      ...(previous.application ?? {}),
      status: STATUS_LABEL[u.status],
      reference: u.reference,
      e_number: u.e_number ?? null,
      received_date: u.received_date,
      police_computer_search_date: dateOf(2),
      barred_list_search_date: dateOf(3),
      certificate_assembled_date: assembled,
      certificate_despatched_date: despatched,
      certificate_printed_date: dateOf(5),
      records_held_date:
        u.disclosure?.status === 'records-held' ? (u.disclosure.issue_date ?? null) : null,
    },
    tracking: u.stages
      .filter((s) => s.status !== 'not-applicable')
      .map((s) => ({
        stage: DISCLOSURE_STAGES.find((d) => d.stage === s.stage)?.name ?? `Stage ${s.stage}`,
        status: s.status === 'complete' ? 'Complete' : 'Pending',
        completed_date: s.completed_date,
      })),
    disclosure: u.disclosure
      ? {
          status: u.disclosure.status,
          certificate_number: u.disclosure.certificate_number,
          issue_date: u.disclosure.issue_date,
          // not said by the provider: unknown (the panel shows it blank), not 'No'
          manual_certificate: u.disclosure.manual_certificate ?? null,
        }
      : (previous.disclosure ?? null),
    barred_lists: u.barred_lists.map((b) => ({
      list: b.list,
      searched: true,
      search_date: b.search_date,
      result: b.result,
    })),
    top_up: topUpResult(topUp),
  };
  return { state: STATE_OF_STATUS[u.status], resultData };
}

/**
 * The update service's answer as the activity's state and result_data: a documented status
 * completes the check (its meaning is the result shown); any other needs a decision, shown as
 * 'Unexpected status.'.
 */
export function mapStatusCheck(
  a: StatusCheckAnswer,
  certificateNumber: string,
  today: string,
): { state: CaseActivityState; resultData: DbsUpdateResultData } {
  return {
    state: isCertificateStatus(a.status) ? 'ca-complete' : 'ca-pending-activity-decision',
    resultData: {
      certificate_status: a.status,
      certificate_number: certificateNumber,
      forename: a.forename,
      surname: a.surname,
      print_date: a.print_date,
      checked_date: today,
    },
  };
}
