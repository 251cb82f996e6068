import {
  ACTIVITY_KINDS,
  type ActivityConfig,
  type ApplicationUpdate,
  applicationUpdateSchema,
  type CaseActivityState,
  DBS_RESULT_TEXTS,
  type DbsApplicant,
  type DbsResultData,
  DISCLOSURE_STAGES,
  employerNameOf,
  type ProcessingData,
  TOP_UP_DEMANDED_AGAIN,
  type TopUp,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/connection.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import type {
  DisclosureApplicant,
  DisclosureApplication,
  DisclosureLevel,
  DisclosureProvider,
  IdentityVerification,
} from '../../../providers/dbs-basic/provider.js';
import {
  caseAddresses,
  caseBasicDetails,
  caseBirthDetails,
} from '../../case-data/case-data.table.js';
import { lockCase } from '../../cases/cases.service.js';
import { decryptValue } from '../../encryption/field-cipher.js';
import { maskIdentifier } from '../../encryption/mask.js';
import { processes } from '../../processes/processes.table.js';
import { segments } from '../../segments/segments.table.js';
import { subjects } from '../../subjects/subjects.table.js';
import { saveActivity, topUpIntentJob, topUpResult } from '../activity.js';
import {
  type Applied,
  type CheckProviderDefinition,
  defineKind,
  type EngineKind,
  type LockedActivity,
  type StartGate,
} from '../kind.js';
import { dbsBasicProvider, ebulkProvider } from './providers.js';

/*
 * The criminal-record family: basic (the basic-disclosure service), standard and enhanced (the
 * e-bulk registered body). Its start submits the application built from the case data; the
 * provider answers with the application's state (or a top-up it demands), then moves it through
 * the DBS stages, reported by callbacks and polls, to its disclosure result.
 */

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

/**
 * The applicant as submitted to the provider, for the result panel's applicant details: the
 * names, date of birth, contact details, NI number, nationality, place of birth and current
 * address the application carried (empty ones as null; each within the result's 200 characters;
 * the NI number masked, as the audit log keeps it: no plain copy outside the case's details).
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
    // stored encrypted with the case's basic details: the result keeps it masked (issue 34)
    nin: v(maskIdentifier(a.nin)),
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

/** The case's identity verification and countersignature, as the application carries them. */
async function identityVerificationOf(
  tx: Tx,
  caseId: number,
): Promise<IdentityVerification | null> {
  const rows = await tx.execute<{
    idv_option: string;
    identity_route: number | null;
    verified_by: string | null;
    verified_at: Date | string | null;
    countersigned_by: string | null;
    countersigned_at: Date | string | null;
  }>(sql`
    select idv_option, identity_route, verified_by, verified_at, countersigned_by, countersigned_at
    from case_dbs_details where case_id = ${caseId} and state in ('verified', 'countersigned')
    limit 1`);
  const d = rows[0];
  if (!d?.verified_by || !d.verified_at) return null;
  const at = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    basis: d.idv_option === 'online' ? 'online' : 'documents',
    route: d.identity_route,
    verified_by: d.verified_by,
    verified_at: at(d.verified_at) ?? '',
    countersigned_by: d.countersigned_by,
    countersigned_at: at(d.countersigned_at),
  };
}

/** The application a start submits, from the case's data; null without its basic details. */
async function applicationOf(
  tx: Tx,
  a: LockedActivity,
  level: DisclosureLevel,
  barredLists: (config: ActivityConfig) => ('adult' | 'child')[],
  callbackUrl: string,
): Promise<DisclosureApplication | null> {
  const caseId = a.row.caseId;
  const [basic] = await tx
    .select()
    .from(caseBasicDetails)
    .where(eq(caseBasicDetails.caseId, caseId));
  if (!basic) return null;
  const [birth] = await tx
    .select()
    .from(caseBirthDetails)
    .where(eq(caseBirthDetails.caseId, caseId));
  const [address] = await tx
    .select()
    .from(caseAddresses)
    .where(and(eq(caseAddresses.caseId, caseId), eq(caseAddresses.current, true)))
    .limit(1);
  const c = await lockCase(tx, caseId);
  const [subject] = await tx
    .select({ email: subjects.email })
    .from(subjects)
    .where(eq(subjects.id, c.subjectId));
  const config: ActivityConfig = a.row.config;
  const processing = a.processing;
  // 'Segment employer name': the employer name of the segment of the case's process (issue 30)
  const [segment] =
    config.employer_name_source === 'segment'
      ? await tx
          .select({ employerName: segments.employerName })
          .from(processes)
          .innerJoin(
            segments,
            and(
              eq(segments.customerId, processes.customerId),
              eq(segments.id, processes.segmentId),
            ),
          )
          .where(and(eq(processes.customerId, c.customerId), eq(processes.id, c.processId)))
      : [];
  return {
    idempotency_key: processing?.idempotency_key ?? `kestrel-ca-${a.row.id}`,
    level,
    callback_url: callbackUrl,
    applicant: {
      title: basic.title,
      forename: basic.forenameDbs || basic.forename,
      middlename: basic.middlenameDbs || basic.middlename,
      surname: basic.surnameDbs || basic.surname,
      dob: basic.dob ?? '',
      gender: basic.gender,
      email: basic.emailDbs || subject?.email || '',
      phone_number: basic.phoneNumber,
      nin: decryptValue('case_basic_details', 'nin', basic.nin),
      nationality: basic.nationality,
      birth_town: birth ? birth.townDbs || birth.town : '',
      birth_country: birth ? birth.countryDbs || birth.country : '',
      current_address: address
        ? [address.lineOne, address.lineTwo, address.town, address.postcode]
            .filter(Boolean)
            .join(', ')
        : '',
    },
    workforce: config.workforce ?? null,
    barred_lists: barredLists(config),
    purpose: config.purpose ?? null,
    position: config.position ?? null,
    employer_name: employerNameOf(config, segment?.employerName ?? null),
    top_up_payment: processing?.top_up?.status === 'paid' ? processing.top_up.payment_intent : null,
    identity_verification: await identityVerificationOf(tx, caseId),
    provider_configuration: processing?.provider_configuration ?? null,
  };
}

/**
 * Applies a provider's application update (answer, poll or callback) to a locked activity;
 * `submitted` is what the submission itself adds to the result (the applicant details, on the
 * provider's answer to the submission).
 */
export async function applyApplicationUpdate(
  ctx: ServiceContext,
  a: LockedActivity,
  processing: ProcessingData,
  update: ApplicationUpdate,
  submitted: Pick<DbsResultData, 'applicant'> = {},
): Promise<Applied> {
  let next: ProcessingData = { ...processing, stage: update.stage, last_error: null };
  let demanded = false;
  let demandedAgain = false;
  if (update.status === 'top-up-required' && update.top_up) {
    if (next.top_up?.status === 'paid') {
      // not charged twice on the provider's word: a person decides (TOP_UP_DEMANDED_AGAIN)
      demandedAgain = true;
      next = { ...next, last_error: TOP_UP_DEMANDED_AGAIN };
    } else {
      demanded = next.top_up?.status !== 'awaiting';
      next = {
        ...next,
        top_up: { ...update.top_up, status: 'awaiting', payment_intent: null },
      };
    }
  } else {
    next = { ...next, reference: update.reference };
  }
  const previous = a.kind.resultSchema.safeParse(a.row.resultData);
  const mapped = mapApplicationUpdate(
    update,
    { ...((previous.success ? previous.data : {}) as DbsResultData), ...submitted },
    next.top_up,
  );
  if (demandedAgain && mapped.resultData.application) {
    // nothing awaits payment (no link): the application's status stays what it was
    mapped.resultData.application.status = previous.success
      ? ((previous.data as DbsResultData).application?.status ?? null)
      : null;
  }
  const state = demandedAgain ? 'ca-pending-activity-decision' : mapped.state;
  const { activity } = await saveActivity(ctx, a, next, {
    ...(state !== a.row.state ? { state } : {}),
    resultData: a.kind.resultSchema.parse(mapped.resultData),
  });
  if (demanded) await ctx.enqueue(topUpIntentJob(a));
  return { row: activity, tracking: update.status === 'in-progress' };
}

/** True when the case's DBS details are countersigned. */
export async function isCountersigned(tx: Tx, caseId: number): Promise<boolean> {
  const rows = await tx.execute<{ state: string | null }>(
    sql`select state from case_dbs_details where case_id = ${caseId} limit 1`,
  );
  return rows[0]?.state === 'countersigned';
}

/**
 * Standard and enhanced applications (the e-bulk registered body) go to the DBS only once a
 * countersignatory has countersigned the case's DBS details (verified, then countersigned); a
 * basic disclosure needs neither (the domain registry's `countersigned`).
 */
const countersigned: StartGate = { ready: isCountersigned };

function disclosureKind<C extends 'dbs-basic' | 'dbs-standard' | 'dbs-enhanced'>(
  code: C,
  provider: CheckProviderDefinition<DisclosureProvider>,
  level: DisclosureLevel,
  barredLists: (config: ActivityConfig) => ('adult' | 'child')[],
): EngineKind & { code: C } {
  return defineKind<
    DisclosureProvider,
    DisclosureApplication,
    ApplicationUpdate,
    ApplicationUpdate,
    C
  >({
    code,
    provider,
    trigger: 'submission',
    ...(ACTIVITY_KINDS[code].engine.countersigned ? { gate: countersigned } : {}),
    resultSchema: ACTIVITY_KINDS[code].result,
    request: (tx, a, env) => applicationOf(tx, a, level, barredLists, env.callbackUrl),
    // the applicant's surname only (the simulator's outcome; the rest is personal data)
    logged: (r) => ({ ...r, applicant: { surname: r.applicant.surname } }),
    send: (p, r, call) => p.submit({ ...r, idempotency_key: call.idempotencyKey }, call.signal),
    // the provider took the application: its applicant is the result's applicant details
    answered: (ctx, a, processing, request, answer) =>
      applyApplicationUpdate(ctx, a, processing, answer, {
        applicant: applicantResult(request.applicant),
      }),
    tracking: {
      status: (p, reference, call) => p.status(reference, call.signal),
      update: applicationUpdateSchema,
      apply: (ctx, a, processing, update) => applyApplicationUpdate(ctx, a, processing, update),
    },
  });
}

export const dbsBasicKind = disclosureKind('dbs-basic', dbsBasicProvider, 'basic', none);
export const dbsStandardKind = disclosureKind('dbs-standard', ebulkProvider, 'standard', none);
export const dbsEnhancedKind = disclosureKind(
  'dbs-enhanced',
  ebulkProvider,
  'enhanced',
  enhancedBarredLists,
);
